import { recheckCoup } from './coup-audit';
import { canonicalJson, foldReplay, serializeSteps, stateFromView } from './fold';
import { liveTable, play, replayOf } from './testing/fixture';
import { evolve, initialState, tableView } from '@coup/table';

describe('replay folded in the browser', () => {
  const events = liveTable();

  it('given the service view before a hand, when rebuilt as a state, then tableView shows it unchanged', () => {
    for (const round of [1, 2]) {
      const replay = replayOf(events, round);
      expect(canonicalJson(tableView(stateFromView(replay.before)))).toBe(canonicalJson(replay.before));
      // and mid-hand (a round open with cards out) too
      for (const s of replay.steps)
        expect(canonicalJson(tableView(stateFromView(s.view)))).toBe(canonicalJson(s.view));
    }
  });

  it('when the events are folded with evolve from that state, then every step matches the service view', () => {
    const folded = foldReplay(replayOf(events, 2));
    expect(folded.steps.map((s) => s.event.type)).toEqual([
      'BettingOpened',
      'BetPlaced',
      'BetPlaced',
      'BettingClosed',
      'CardDealt',
      'CardDealt',
      'CardDealt',
      'CardDealt',
      'CoupResolved',
    ]);
    expect(folded.steps.every((s) => s.matchesService)).toBe(true);
    expect(folded.steps.at(-1)?.view.round?.result?.outcome).toBe('player');
  });

  it('a service view that differs from the fold is flagged on that step', () => {
    const replay = replayOf(events, 1);
    const tampered = {
      ...replay,
      steps: replay.steps.map((s, i) =>
        i === 2
          ? { ...s, view: { ...s.view, players: s.view.players.map((p) => ({ ...p, chips: p.chips + 1 })) } }
          : s,
      ),
    };
    expect(foldReplay(tampered).steps.map((s) => s.matchesService)).toEqual(
      replay.steps.map((_, i) => i !== 2),
    );
  });

  it('the same hand replayed twice gives the same steps, byte for byte', () => {
    const a = serializeSteps(foldReplay(JSON.parse(JSON.stringify(replayOf(events, 1)))));
    const b = serializeSteps(foldReplay(JSON.parse(JSON.stringify(replayOf(events, 1)))));
    expect(a.length).toBeGreaterThan(1000);
    expect(a).toBe(b);
    expect(a).not.toBe(serializeSteps(foldReplay(replayOf(events, 2))));
  });

  it('the coup re-resolved by the engine matches the recorded one; a tampered record does not', () => {
    const replay = replayOf(events, 1);
    const check = recheckCoup(foldReplay(replay));
    expect(check.kind).toBe('checked');
    if (check.kind !== 'checked') return;
    expect(check.same).toBe(true);
    expect(check.engine.playerCards).toEqual(['2c', '3s', '9c']);
    const steps = replay.steps.map((s) =>
      s.event.type === 'CoupResolved'
        ? { ...s, event: { ...s.event, data: { ...(s.event.data as object), outcome: 'player' } } }
        : s,
    );
    const bad = recheckCoup(foldReplay({ ...replay, steps }));
    expect(bad.kind === 'checked' && bad.fields.filter((f) => !f.same).map((f) => f.name)).toEqual([
      'outcome',
    ]);
  });

  it('a hand without a resolved coup has nothing to re-resolve', () => {
    const replay = replayOf(events, 1);
    expect(recheckCoup(foldReplay({ ...replay, steps: replay.steps.slice(0, 5) })).kind).toBe('unfinished');
  });
});

describe('replay folded in the browser: rng shoes, voids, every-coup tables', () => {
  const seed = (n: number) => n.toString(16).padStart(64, '0');

  it('an rng shoe with a voided round and the coup after it: every step matches the service view', () => {
    const { events } = play([
      { type: 'OpenTable', data: { tableId: 'T1', rules: { dealing: 'rng' } } },
      { type: 'BuyIn', data: { playerId: 'alice', amount: 100_000 } },
      { type: 'StartShoe', data: { seed: seed(7) } },
      { type: 'OpenBetting', data: {} },
      { type: 'PlaceBet', data: { roundNo: 1, playerId: 'alice', spot: 'tie', amount: 500 } },
      { type: 'VoidRound', data: { roundNo: 1, reason: 'table bumped' }, role: 'supervisor' },
      { type: 'OpenBetting', data: {} },
      { type: 'PlaceBet', data: { roundNo: 2, playerId: 'alice', spot: 'player', amount: 1000 } },
      { type: 'CloseBetting', data: { roundNo: 2 } },
      { type: 'Deal', data: { roundNo: 2 } },
    ]);
    for (const round of [1, 2]) {
      const folded = foldReplay(replayOf(events, round));
      expect(folded.steps.map((s) => s.matchesService)).toEqual(folded.steps.map(() => true));
    }
    const voided = foldReplay(replayOf(events, 1));
    expect(voided.steps.at(-1)?.view.round?.voided?.reason).toBe('table bumped');
    expect(recheckCoup(voided)).toEqual({
      kind: 'voided',
      reason: 'table bumped',
      by: 'supervisor-1',
      afterSettling: false,
    });
    const dealt = recheckCoup(foldReplay(replayOf(events, 2)));
    expect(dealt.kind === 'checked' && dealt.same).toBe(true);
  });

  it('an every-coup table (a shuffle per coup, the seed revealed after it): every step matches', () => {
    const { events } = play([
      { type: 'OpenTable', data: { tableId: 'T1', rules: { dealing: 'rng', shuffle: 'every-coup' } } },
      { type: 'BuyIn', data: { playerId: 'alice', amount: 100_000 } },
      { type: 'OpenBetting', data: { seed: seed(1) } },
      { type: 'PlaceBet', data: { roundNo: 1, playerId: 'alice', spot: 'banker', amount: 1000 } },
      { type: 'CloseBetting', data: { roundNo: 1 } },
      { type: 'Deal', data: { roundNo: 1 } },
      { type: 'OpenBetting', data: { seed: seed(2) } },
      { type: 'PlaceBet', data: { roundNo: 2, playerId: 'alice', spot: 'player', amount: 1000 } },
      { type: 'CloseBetting', data: { roundNo: 2 } },
      { type: 'Deal', data: { roundNo: 2 } },
    ]);
    const folded = foldReplay(replayOf(events, 2, 1));
    expect(folded.before.shoe).toMatchObject({ shoeNo: 2, seed: null });
    expect(folded.steps.map((s) => s.event.type).slice(-2)).toEqual(['CoupResolved', 'ShoeEnded']);
    expect(folded.steps.every((s) => s.matchesService)).toBe(true);
    expect(folded.steps.at(-1)?.view.shoe?.seed).toBe(seed(2));
  });

  it('a side-bet table: every step, stakes on side bets included, rebuilds and folds as the service showed it', () => {
    const { events: sideBetEvents } = play([
      {
        type: 'OpenTable',
        data: { tableId: 'T1', rules: { dealing: 'live', game: 'ez', sideBets: { dragon7: {} } } },
      },
      { type: 'BuyIn', data: { playerId: 'alice', amount: 100_000 } },
      { type: 'StartShoe', data: { firstCard: '5h' } },
      { type: 'OpenBetting', data: {} },
      { type: 'PlaceBet', data: { roundNo: 1, playerId: 'alice', spot: 'banker', amount: 1000 } },
      { type: 'PlaceBet', data: { roundNo: 1, playerId: 'alice', spot: 'dragon7', amount: 500 } },
      { type: 'CloseBetting', data: { roundNo: 1 } },
      // a three-card banker 7: Dragon 7 wins, the banker bet pushes
      ...['2c', '3d', '3c', 'Td', 'Kc', '4h'].map((card) => ({
        type: 'DealCard' as const,
        data: { roundNo: 1, card },
      })),
    ]);
    const replay = replayOf(sideBetEvents, 1);
    for (const s of replay.steps) {
      expect(canonicalJson(tableView(stateFromView(s.view)))).toBe(canonicalJson(s.view));
      // the stakes the round counts (its maxStakes rule) are the decider's own at that step
      const folded = sideBetEvents.slice(0, s.event.revision + 1).reduce(evolve, initialState);
      expect(stateFromView(s.view).round?.stakes).toBe(folded.round?.stakes);
    }
    const folded = foldReplay(replay);
    expect(folded.steps.every((s) => s.matchesService)).toBe(true);
    expect(folded.steps.at(-1)?.view.round?.result?.settlements).toMatchObject([
      { spot: 'banker', result: 'push', paid: 1000 },
      { spot: 'dragon7', result: 'win', paid: 20_500, paytable: '40-to-1' },
    ]);
  });
});
