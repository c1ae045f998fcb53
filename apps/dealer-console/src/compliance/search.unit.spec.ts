import { EMPTY_SEARCH, parseComplianceRoute, playerHash, searchHash } from './route';
import { handsPath, isProblem, toSearch } from './search';
import { zonedToIso } from './zoned';

const LONDON = { timeZone: 'Europe/London' };

describe('casino local times', () => {
  it('reads a wall time in the casino zone, either side of a clock change', () => {
    expect(zonedToIso('2026-01-15T06:00', 'Europe/London')).toBe('2026-01-15T06:00:00.000Z');
    expect(zonedToIso('2026-07-15T06:00', 'Europe/London')).toBe('2026-07-15T05:00:00.000Z');
    expect(zonedToIso('2026-07-15T06:00', 'Asia/Macau')).toBe('2026-07-14T22:00:00.000Z');
    expect(zonedToIso('2026-07-15T06:00', 'America/Los_Angeles')).toBe('2026-07-15T13:00:00.000Z');
    // 01:30 does not exist in London on 29 March 2026 (01:00 GMT -> 02:00 BST): the moment the clocks jump past it
    expect(zonedToIso('2026-03-29T01:30', 'Europe/London')).toBe('2026-03-29T01:00:00.000Z');
    // 01:30 comes twice on 25 October 2026 (02:00 BST -> 01:00 GMT): the first time
    expect(zonedToIso('2026-10-25T01:30', 'Europe/London')).toBe('2026-10-25T00:30:00.000Z');
    expect(zonedToIso('2026-10-25T02:30', 'Europe/London')).toBe('2026-10-25T02:30:00.000Z');
    // Lord Howe Island moves its clocks by half an hour
    expect(zonedToIso('2026-10-04T02:15', 'Australia/Lord_Howe')).toBe('2026-10-03T15:30:00.000Z');
  });

  it('refuses what is not a time', () => {
    for (const bad of ['', '2026-02-30T06:00', '2026-01-15', '2026-01-15T24:00', 'yesterday'])
      expect(zonedToIso(bad, 'Europe/London')).toBeNull();
  });
});

describe('the search form', () => {
  it('turns every field into the hands filter', () => {
    const s = toSearch(
      {
        ...EMPTY_SEARCH,
        table: 'T1',
        shoe: '2',
        player: 'alice',
        outcome: 'void',
        corrected: 'true',
        day: '2026-01-15',
      },
      LONDON,
    );
    expect(s).toEqual({
      tableId: 'T1',
      filter: {
        shoe: 2,
        player: 'alice',
        outcome: 'void',
        corrected: true,
        gamingDay: '2026-01-15',
      },
    });
    expect(handsPath(s as Exclude<typeof s, { field: string }>, 'c1', 20)).toBe(
      '/tables/T1/hands?shoe=2&gamingDay=2026-01-15&player=alice&outcome=void&corrected=true&cursor=c1&limit=20',
    );
  });

  it('a time range is read in the casino zone; empty fields are left out', () => {
    expect(toSearch({ ...EMPTY_SEARCH, table: 'T1', from: '2026-07-15T06:00' }, LONDON)).toEqual({
      tableId: 'T1',
      filter: { from: '2026-07-15T05:00:00.000Z' },
    });
    expect(toSearch({ ...EMPTY_SEARCH, table: 'T1' }, LONDON)).toEqual({ tableId: 'T1', filter: {} });
  });

  it.each([
    [{ table: '' }, 'table', 'errors.table'],
    [{ shoe: '0' }, 'shoe', 'errors.shoe'],
    [{ shoe: '1.5' }, 'shoe', 'errors.shoe'],
    [{ player: '-bob' }, 'player', 'errors.player'],
    [{ outcome: 'dragon' }, 'outcome', 'errors.outcome'],
    [{ day: '2026-13-01' }, 'day', 'errors.day'],
    [{ day: '2026-01-15', from: '2026-01-15T06:00' }, 'day', 'errors.dayOrRange'],
    [{ from: '2026-01-15' }, 'from', 'errors.time'],
    [{ from: '2026-01-15T08:00', to: '2026-01-15T06:00' }, 'to', 'errors.range'],
  ])('%j is refused: %s', (fields, field, message) => {
    const s = toSearch({ ...EMPTY_SEARCH, table: 'T1', ...fields }, LONDON);
    expect(isProblem(s) && { field: s.field, message: s.message }).toEqual({ field, message });
  });
});

describe('compliance routes', () => {
  it('keeps a search in the address and reads it back', () => {
    const form = { ...EMPTY_SEARCH, table: 'T1', player: 'a+b@x', outcome: 'tie', from: '2026-01-15T06:00' };
    const hash = searchHash(form);
    expect(hash).toBe('#/compliance?table=T1&from=2026-01-15T06%3A00&player=a%2Bb%40x&outcome=tie');
    expect(parseComplianceRoute(hash)).toEqual({ kind: 'search', form });
    expect(parseComplianceRoute('#/compliance')).toEqual({ kind: 'search', form: EMPTY_SEARCH });
    expect(searchHash(EMPTY_SEARCH)).toBe('#/compliance');
  });

  it('a player’s audit trail, its id encoded; other addresses are not compliance routes', () => {
    expect(playerHash('a:b@c')).toBe('#/compliance/players/a%3Ab%40c');
    expect(parseComplianceRoute(playerHash('a:b@c'))).toEqual({ kind: 'player', playerId: 'a:b@c' });
    expect(parseComplianceRoute('#/compliance/players/%E0')).toBeNull();
    expect(parseComplianceRoute('#/compliance/players/-x')).toBeNull();
    expect(parseComplianceRoute('#/tables/T1')).toBeNull();
    expect(parseComplianceRoute('#/compliancex')).toBeNull();
  });
});
