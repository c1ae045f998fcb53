import { canonicalJson, foldReplay, recheckCoup, serializeSteps, stateFromView } from './fold';
import { liveTable, replayOf } from './testing/fixture';
import { tableView } from '@coup/table';

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
      'Outcome',
    ]);
  });

  it('a hand without a resolved coup has nothing to re-resolve', () => {
    const replay = replayOf(events, 1);
    expect(recheckCoup(foldReplay({ ...replay, steps: replay.steps.slice(0, 5) })).kind).toBe('none');
  });
});
