import { EventStoreInputError } from './errors';
import type { RecordedEvent } from './types';
import { UpcasterRegistry } from './upcasting';

const recorded = (type: string, data: RecordedEvent['data'], schemaVersion: number): RecordedEvent => ({
  id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  type,
  data,
  metadata: { schemaVersion, actor: 'dealer:d1' },
  streamName: 's',
  streamRevision: 0n,
  globalPosition: 1n,
  recordedAt: '2026-01-01T00:00:00.000Z',
  prevHash: '0'.repeat(64),
  hash: 'a'.repeat(64),
});

describe('UpcasterRegistry', () => {
  const registry = new UpcasterRegistry()
    .register('CardDealt', 1, ({ data }) => ({ data: { card: (data as { c: string }).c } }))
    .register('CardDealt', 2, ({ data }) => ({
      type: 'CardDrawn',
      data: { ...(data as object), face: 'up' },
    }));

  it('given a v1 event, when read, then every step up to the newest registered version applies', () => {
    const event = recorded('CardDealt', { c: 'Ah' }, 1);
    const upcast = registry.upcast(event);
    expect(upcast).toMatchObject({
      type: 'CardDrawn',
      data: { card: 'Ah', face: 'up' },
      metadata: { schemaVersion: 3, actor: 'dealer:d1' },
    });
    expect(upcast.hash).toBe(event.hash); // the chain fields describe the stored form
    expect(event.data).toEqual({ c: 'Ah' }); // the input is not mutated
  });

  it('given a v2 event, then only the later step applies; given the newest, then it is returned as is', () => {
    expect(registry.upcast(recorded('CardDealt', { card: 'Td' }, 2))).toMatchObject({
      type: 'CardDrawn',
      data: { card: 'Td', face: 'up' },
    });
    const current = recorded('CardDealt', { card: 'Td' }, 3);
    expect(registry.upcast(current)).toBe(current);
    const other = recorded('Other', {}, 1);
    expect(registry.upcast(other)).toBe(other);
  });

  it('refuses a second upcaster for the same step and a version below 1', () => {
    expect(() => new UpcasterRegistry().register('A', 1, (e) => e).register('A', 1, (e) => e)).toThrow(
      EventStoreInputError,
    );
    expect(() => new UpcasterRegistry().register('A', 0, (e) => e)).toThrow(EventStoreInputError);
  });
});
