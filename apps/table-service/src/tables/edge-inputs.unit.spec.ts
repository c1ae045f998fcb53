import { Clock, SeedSource } from './edge-inputs';

describe('edge inputs', () => {
  afterEach(() => jest.restoreAllMocks());

  it("the clock reads Date.now() on every call and writes that millisecond's ISO-8601 time", () => {
    const clock = new Clock();
    const now = jest.spyOn(Date, 'now');
    for (const ms of [1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_000, 0]) {
      now.mockReturnValue(ms);
      expect(clock.now()).toBe(new Date(ms).toISOString());
    }
    expect(now).toHaveBeenCalledTimes(5);
  });

  it('the clock follows the real time', () => {
    const clock = new Clock();
    const before = Date.now();
    const at = Date.parse(clock.now());
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  it('seeds are 32 fresh bytes as hex', () => {
    const seeds = new SeedSource();
    const a = seeds.next();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(seeds.next()).not.toBe(a);
  });
});
