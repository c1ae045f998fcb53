import { EventStoreInputError } from './errors';
import {
  MAX_EVENT_BYTES,
  normalizeReadAllOptions,
  normalizeReadStreamOptions,
  prepareEvents,
  validateExpectedRevision,
  validateStreamName,
} from './validation';
import type { NewEvent } from './types';

const ID = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const event = (over: Partial<NewEvent> = {}): NewEvent => ({
  id: ID,
  type: 'T',
  data: {},
  metadata: { schemaVersion: 1 },
  ...over,
});
const code = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(EventStoreInputError);
    return (error as EventStoreInputError).code;
  }
};

describe('validation', () => {
  it('given an upper-case UUID, then it is stored lower-case', () => {
    expect(prepareEvents([event({ id: ID.toUpperCase() })])[0]!.id).toBe(ID);
  });

  it('given metadata with undefined optional fields, then they are dropped before hashing', () => {
    const [prepared] = prepareEvents([
      event({ metadata: { schemaVersion: 2, commandId: undefined, actor: 'a' } }),
    ]);
    expect(prepared!.metadataJson).toBe('{"actor":"a","schemaVersion":2}');
  });

  it.each([
    ['schemaVersion 0', { schemaVersion: 0 }],
    ['a fractional schemaVersion', { schemaVersion: 1.5 }],
    ['a string schemaVersion', { schemaVersion: '1' }],
    ['a reserved $ key', { schemaVersion: 1, $coup: 'x' }],
    ['a non-string commandId', { schemaVersion: 1, commandId: 7 }],
    ['nested undefined', { schemaVersion: 1, extra: { a: undefined } }],
  ])('refuses metadata with %s', (_what, metadata) => {
    expect(
      code(() => prepareEvents([event({ metadata: metadata as unknown as NewEvent['metadata'] })])),
    ).toBe('INVALID_EVENT');
  });

  it.each([
    ['a $ type', { type: '$>' }],
    ['a type with a newline', { type: 'A\nB' }],
    ['an over-long type', { type: 'x'.repeat(201) }],
  ])('refuses an event with %s', (_what, over) => {
    expect(code(() => prepareEvents([event(over)]))).toBe('INVALID_EVENT');
  });

  it('refuses an event without data', () => {
    const { data: _data, ...noData } = event();
    expect(code(() => prepareEvents([noData as NewEvent]))).toBe('INVALID_EVENT');
  });

  it('allows an event right at the size limit and refuses one byte more', () => {
    const overhead = '{"s":""}'.length + '{"schemaVersion":1}'.length;
    const at = 'x'.repeat(MAX_EVENT_BYTES - overhead);
    expect(code(() => prepareEvents([event({ data: { s: at } })]))).toBeUndefined();
    expect(code(() => prepareEvents([event({ data: { s: `${at}x` } })]))).toBe('EVENT_TOO_LARGE');
    // Size is counted in UTF-8 bytes, not characters.
    expect(code(() => prepareEvents([event({ data: { s: 'é'.repeat(MAX_EVENT_BYTES / 2) } })]))).toBe(
      'EVENT_TOO_LARGE',
    );
  });

  it('checks stream names', () => {
    expect(validateStreamName('table-T1')).toBe('table-T1');
    expect(validateStreamName('x'.repeat(200))).toHaveLength(200);
    expect(code(() => validateStreamName('a\u0000b'))).toBe('INVALID_STREAM_NAME');
    expect(code(() => validateStreamName(42))).toBe('INVALID_STREAM_NAME');
  });

  it('checks expected revisions and read options', () => {
    expect(validateExpectedRevision(undefined)).toBe('any');
    expect(validateExpectedRevision(0n)).toBe(0n);
    expect(code(() => validateExpectedRevision(1))).toBe('INVALID_OPTIONS');
    expect(code(() => validateExpectedRevision('latest'))).toBe('INVALID_OPTIONS');
    expect(normalizeReadStreamOptions({ direction: 'backwards' })).toEqual({
      fromRevision: 'end',
      direction: 'backwards',
      maxCount: Number.MAX_SAFE_INTEGER,
    });
    expect(code(() => normalizeReadStreamOptions({ maxCount: -1 }))).toBe('INVALID_OPTIONS');
    expect(code(() => normalizeReadStreamOptions({ maxCount: 1.5 }))).toBe('INVALID_OPTIONS');
    expect(code(() => normalizeReadStreamOptions({ fromRevision: -1n }))).toBe('INVALID_OPTIONS');
    expect(code(() => normalizeReadStreamOptions({ direction: 'sideways' as 'forwards' }))).toBe(
      'INVALID_OPTIONS',
    );
    expect(code(() => normalizeReadAllOptions({ fromPosition: 5 as unknown as bigint }))).toBe(
      'INVALID_OPTIONS',
    );
  });
});
