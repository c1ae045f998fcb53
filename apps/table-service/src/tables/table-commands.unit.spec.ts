import { COMMAND_SEEDS, initialState, normalizeRules, type TableRules, type TableState } from '@coup/table';
import type { CommandBus } from '@nestjs/cqrs';
import { Clock, SeedSource } from './edge-inputs';
import { shufflesWith, TableCommands, type SeededCommand } from './table-commands';
import type { TableProcessor } from './table-processor';

const rulesOf = (rules: Record<string, unknown>): TableRules => {
  const r = normalizeRules(rules);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('seeds at the edge', () => {
  it('a command starts a shuffle on rng tables only: StartShoe always, OpenBetting on every-coup, Deal when player-dealt', () => {
    const live = rulesOf({ dealing: 'live' });
    const shoe = rulesOf({ dealing: 'rng' });
    const everyCoup = rulesOf({ dealing: 'rng', shuffle: 'every-coup' });
    const playerDealt = rulesOf({ dealing: 'rng', shuffle: 'every-coup', dealtBy: 'player' });
    for (const c of ['StartShoe', 'OpenBetting', 'Deal'] as const) expect(shufflesWith(live, c)).toBe(false);
    expect(shufflesWith(shoe, 'StartShoe')).toBe(true);
    expect(shufflesWith(shoe, 'OpenBetting')).toBe(false);
    expect(shufflesWith(everyCoup, 'OpenBetting')).toBe(true);
    expect(shufflesWith(everyCoup, 'Deal')).toBe(false);
    expect(shufflesWith(playerDealt, 'Deal')).toBe(true);
  });

  it("the seed goes in the command's seed fields as the decider names them (COMMAND_SEEDS), fresh each time", async () => {
    let n = 0;
    const seeds = { next: () => String(++n).padStart(64, '0') } as SeedSource;
    const rules = rulesOf({ dealing: 'rng', shuffle: 'every-coup', dealtBy: 'player' });
    const tables = {
      state: async () => ({ ...initialState, rules }) as TableState,
    } as unknown as TableProcessor;
    const commands = new TableCommands({} as CommandBus, tables, new Clock(), seeds);
    for (const c of ['StartShoe', 'OpenBetting', 'Deal'] as SeededCommand[]) {
      const got = await commands.seedsFor('T1', c);
      expect(Object.keys(got)).toEqual(COMMAND_SEEDS[c]);
      expect(COMMAND_SEEDS[c].length).toBeGreaterThan(0);
    }
    expect(n).toBe(3);
    const none = {
      state: async () => ({ ...initialState, rules: rulesOf({ dealing: 'live' }) }) as TableState,
    };
    expect(
      await new TableCommands(
        {} as CommandBus,
        none as unknown as TableProcessor,
        new Clock(),
        seeds,
      ).seedsFor('T1', 'StartShoe'),
    ).toEqual({});
  });
});
