import { eventIdFor, uuidv7 } from './idempotency';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('event ids', () => {
  it('uuidv7 ids are valid version-7 UUIDs that sort by time', () => {
    const a = uuidv7(1_700_000_000_000);
    const b = uuidv7(1_700_000_000_001);
    expect(a).toMatch(UUID);
    expect(a[14]).toBe('7');
    expect(a < b).toBe(true);
    expect(a.slice(0, 13)).toBe('018bcfe5-6800');
  });

  it('uuidv7 ids made in the same millisecond differ (74 random bits each)', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidv7(1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(UUID);
  });

  it('idempotent event ids are deterministic per table, key and index', () => {
    expect(eventIdFor('T1', 'k', 0)).toBe(eventIdFor('T1', 'k', 0));
    expect(eventIdFor('T1', 'k', 0)).not.toBe(eventIdFor('T1', 'k', 1));
    expect(eventIdFor('T1', 'k', 0)).not.toBe(eventIdFor('T2', 'k', 0));
    expect(eventIdFor('T1', 'k', 0)).toMatch(UUID);
  });
});
