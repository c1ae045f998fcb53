// A close cashes out at most MAX_CASH_OUT_ALL players at once: a command's events are one append of the store
// (EventStoreDB takes 1 MiB by default), and each cash-out is an event of its own.
import { decide, fold } from '../src';
import { MAX_CASH_OUT_ALL } from '../src/capabilities/tables-and-players/close-table';
import { buy, cmd, given, history, open } from './support';

const players = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);

describe('CloseTable with cashOutAll', () => {
  it(`cashes out up to ${MAX_CASH_OUT_ALL} players in one close`, () => {
    const seated = history(open(), ...players(MAX_CASH_OUT_ALL).map((p) => buy(p, 100)));
    const decision = decide(cmd('CloseTable', { cashOutAll: true }), fold(seated));
    expect(decision.ok && decision.events.filter((e) => e.type === 'PlayerCashedOut')).toHaveLength(
      MAX_CASH_OUT_ALL,
    );
  });

  it('refuses more, saying to cash players out first (PLAYERS_SEATED with the bound); recorded nothing', () => {
    const many = players(MAX_CASH_OUT_ALL + 1);
    const seated = history(open(), ...many.map((p) => buy(p, 100)));
    given(seated)
      .when(cmd('CloseTable', { cashOutAll: true }))
      .then('PLAYERS_SEATED', { players: [...many].sort(), cashOutAllMax: MAX_CASH_OUT_ALL });
    const decision = decide(cmd('CloseTable', { cashOutAll: true }), fold(seated));
    expect(!decision.ok && decision.error.message).toMatch(
      /more than the 500 .*cash out 1 or more of them first/,
    );
    // Once one of them is cashed out, the close takes the rest.
    const fewer = history(open(), ...many.map((p) => buy(p, 100)), cmd('CashOut', { playerId: 'p0' }));
    expect(decide(cmd('CloseTable', { cashOutAll: true }), fold(fewer)).ok).toBe(true);
  });
});
