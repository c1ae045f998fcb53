// The EventStoreDB adapter's pure parts, without a server: what is stored in the metadata, how positions
// and revisions map, and how the client's errors become the port's.
import {
  StreamNotFoundError,
  WrongExpectedVersionError as ClientWrongExpectedVersion,
} from '@eventstore/db-client';
import { chainRows, verifyChain } from './core';
import {
  EventStoreInputError,
  EventStoreUnavailableError,
  StreamDeletedError,
  WrongExpectedVersionError,
} from './errors';
import {
  appendSize,
  concreteExpectedRevision,
  type EsdbRecordedLike,
  HASH_KEY,
  isInvalidPosition,
  isSystemEvent,
  mapClientError,
  NO_POSITION,
  packMetadata,
  PREV_HASH_KEY,
  readPositionFor,
  toChainLink,
  toRecordedEvent,
  unpackMetadata,
} from './eventstoredb-mapping';
import { GENESIS_HASH } from './hash';
import { prepareEvents } from './validation';

/** What the client would return for events this adapter appended (JSON round trip, as over the wire). */
function storedLikeEsdb(stream: string, count: number, firstPosition = 1000n): EsdbRecordedLike[] {
  const prepared = prepareEvents(
    Array.from({ length: count }, (_, n) => ({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      type: 'BetPlaced',
      data: { n, spot: 'player' },
      metadata: { schemaVersion: 1, actor: 'player:p1' },
    })),
  );
  return chainRows(stream, null, prepared, '').map((row, i) => ({
    streamId: stream,
    id: row.id,
    revision: row.revision,
    type: row.type,
    isJson: true,
    created: new Date('2026-02-03T04:05:06.789Z'),
    data: JSON.parse(JSON.stringify(JSON.parse(row.dataJson))),
    metadata: JSON.parse(JSON.stringify(packMetadata(JSON.parse(row.metadataJson), row.prevHash, row.hash))),
    position: { commit: firstPosition + BigInt(i) * 137n, prepare: firstPosition + BigInt(i) * 137n },
  }));
}

describe('EventStoreDB mapping', () => {
  it('packs the chain fields into reserved metadata keys and strips them on read', () => {
    const packed = packMetadata({ schemaVersion: 1, actor: 'a' }, GENESIS_HASH, 'b'.repeat(64));
    expect(packed).toEqual({
      schemaVersion: 1,
      actor: 'a',
      [PREV_HASH_KEY]: GENESIS_HASH,
      [HASH_KEY]: 'b'.repeat(64),
    });
    expect(unpackMetadata(packed)).toEqual({
      metadata: { schemaVersion: 1, actor: 'a' },
      prevHash: GENESIS_HASH,
      hash: 'b'.repeat(64),
    });
    expect(unpackMetadata(undefined)).toEqual({ metadata: {}, prevHash: '', hash: '' });
    expect(unpackMetadata(new Uint8Array([1]))).toEqual({ metadata: {}, prevHash: '', hash: '' });
  });

  it('maps a stored event to the port: commit position as global position, bigint revision, ISO time', () => {
    const [event] = storedLikeEsdb('table-1', 1, 2n ** 62n);
    const recorded = toRecordedEvent(event!);
    expect(recorded).toEqual({
      id: event!.id,
      type: 'BetPlaced',
      data: { n: 0, spot: 'player' },
      metadata: { schemaVersion: 1, actor: 'player:p1' },
      streamName: 'table-1',
      streamRevision: 0n,
      globalPosition: 2n ** 62n,
      recordedAt: '2026-02-03T04:05:06.789Z',
      prevHash: GENESIS_HASH,
      hash: event!.metadata && (event!.metadata as Record<string, string>)[HASH_KEY],
    });
    expect(() => toRecordedEvent({ ...event!, position: undefined })).toThrow(EventStoreUnavailableError);
    // A server before 22.6 answers stream reads with ulong.MaxValue, which the client passes on as a position.
    expect(() =>
      toRecordedEvent({ ...event!, position: { commit: NO_POSITION, prepare: NO_POSITION } }),
    ).toThrow(/older than 22\.6/);
  });

  it('measures an append as the server does: data, metadata and twice the type length, summed', () => {
    expect(
      appendSize([
        { type: 'Bet', dataJson: '{"a":"é"}', metadataJson: '{}' },
        { type: 'B', dataJson: '1', metadataJson: '{"k":1}' },
      ]),
    ).toBe(10 + 2 + 6 + (1 + 7 + 2));
  });

  it('verifies the chain of events as EventStoreDB returns them, and names a changed one', async () => {
    const stored = storedLikeEsdb('table-2', 5);
    expect(await verifyChain(stored.map(toChainLink))).toMatchObject({ ok: true, checked: 5 });
    const changed = stored.map((e, i) => (i === 3 ? { ...e, data: { n: 3, spot: 'banker' } } : e));
    expect(await verifyChain(changed.map(toChainLink))).toMatchObject({
      ok: false,
      firstBad: { streamRevision: 3n, globalPosition: 1000n + 3n * 137n },
    });
    const foreign = stored.map((e, i) => (i === 1 ? { ...e, metadata: { schemaVersion: 1 } } : e));
    expect(await verifyChain(foreign.map(toChainLink))).toMatchObject({
      ok: false,
      firstBad: { streamRevision: 1n },
    });
  });

  it('maps positions and revisions onto the client', () => {
    expect(readPositionFor(0n)).toBe('start');
    expect(readPositionFor(2n ** 60n)).toEqual({ commit: 2n ** 60n, prepare: 2n ** 60n });
    expect(concreteExpectedRevision(null)).toBe('no_stream');
    expect(concreteExpectedRevision({ revision: 41n })).toBe(41n);
    expect(isSystemEvent({ streamId: '$stats-127.0.0.1:2113', type: '$statsCollected' })).toBe(true);
    expect(isSystemEvent({ streamId: 'table-1', type: '$metadata' })).toBe(true);
    expect(isSystemEvent({ streamId: 'table-1', type: 'BetPlaced' })).toBe(false);
  });

  it("maps the client's errors onto the port's typed errors", () => {
    const wev = mapClientError(
      new ClientWrongExpectedVersion(undefined, { streamName: 't', expected: 3n, current: 5n }),
      't',
      3n,
    );
    expect(wev).toBeInstanceOf(WrongExpectedVersionError);
    expect(wev).toMatchObject({ stream: 't', expected: 3n, actual: 5n });
    const missing = mapClientError(
      new ClientWrongExpectedVersion(undefined, {
        streamName: 't',
        expected: 'stream_exists',
        current: 'no_stream',
      }),
      't',
      'stream_exists',
    );
    expect(missing).toMatchObject({ actual: 'no_stream' });
    expect(
      mapClientError({ type: 'maximum-append-size-exceeded', message: 'too big' }, 't', 'any'),
    ).toBeInstanceOf(EventStoreInputError);
    expect(mapClientError({ type: 'unavailable', message: 'down' }, 't', 'any')).toMatchObject({
      code: 'STORE_UNAVAILABLE',
    });
    expect(mapClientError(new StreamNotFoundError(undefined, 't'), 't', 'any')).toMatchObject({
      code: 'STORE_UNAVAILABLE',
    });
    expect(
      mapClientError(
        { type: 'maximum-append-size-exceeded', maxAppendSize: 1048576, message: '' },
        't',
        'any',
      ),
    ).toMatchObject({ code: 'APPEND_TOO_LARGE', message: expect.stringMatching(/1048576/) });
    expect(mapClientError({ type: 'stream-deleted', message: 'gone' }, 't', 'any')).toBeInstanceOf(
      StreamDeletedError,
    );
    // KurrentDB's per-event limit reaches @eventstore/db-client 6 as an error it does not know.
    for (const message of [
      'Could not recognize MaximumAppendEventSizeExceeded',
      '3 INVALID_ARGUMENT: Event with Id: x, Size: 3000, exceeds Maximum Append Event Size of 2000.',
    ])
      expect(mapClientError({ type: 'unknown', message }, 't', 'any')).toMatchObject({
        code: 'EVENT_TOO_LARGE',
      });
    expect(isInvalidPosition({ message: '2 UNKNOWN: Unexpected ReadAllResult: InvalidPosition' })).toBe(true);
    expect(
      isInvalidPosition({ message: '3 INVALID_ARGUMENT: Trying to read from an invalid position.' }),
    ).toBe(true);
    expect(isInvalidPosition({ message: 'down' })).toBe(false);
  });
});
