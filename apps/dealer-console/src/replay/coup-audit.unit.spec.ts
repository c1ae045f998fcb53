import { auditTrail, recheckCoup } from './coup-audit';
import { foldReplay } from './fold';
import { amendedTable, liveTable, replayOf } from './testing/fixture';

describe('a coup put right after it settled', () => {
  const events = amendedTable();

  it('corrected: the result in force (the correction) is what the engine makes of the corrected cards', () => {
    const folded = foldReplay(replayOf(events, 1, 1));
    expect(folded.steps.at(-1)?.event.type).toBe('SettledCoupCorrected');
    expect(folded.steps.every((s) => s.matchesService)).toBe(true);
    const check = recheckCoup(folded);
    expect(check).toMatchObject({ kind: 'checked', same: true, corrected: true });
    expect(check.kind === 'checked' && check.engine).toMatchObject({
      playerCards: ['2c', '3s', '4c'],
      outcome: 'player',
      playerTotal: 9,
      bankerTotal: 7,
    });
  });

  it('corrected: the audit trail holds the original, then the correction with who, why and the money', () => {
    const trail = auditTrail(foldReplay(replayOf(events, 1, 1)));
    expect(trail).toEqual([
      {
        kind: 'original',
        step: 9,
        at: '2026-11-29T12:00:10.000Z',
        result: {
          outcome: 'banker',
          natural: false,
          playerTotal: 4,
          bankerTotal: 7,
          playerCards: ['2c', '3s', '9c'],
          bankerCards: ['7d', 'Th'],
          paid: 1950,
          matchesCards: true,
        },
      },
      {
        kind: 'correction',
        step: 10,
        at: '2026-11-29T12:00:11.000Z',
        by: 'sam',
        role: 'supervisor',
        reason: 'third card misread',
        reversedPaid: 1950,
        index: 4,
        oldCard: '9c',
        newCard: '4c',
        result: {
          outcome: 'player',
          natural: false,
          playerTotal: 9,
          bankerTotal: 7,
          playerCards: ['2c', '3s', '4c'],
          bankerCards: ['7d', 'Th'],
          paid: 0,
          matchesCards: true,
        },
      },
    ]);
  });

  it('voided: shown as voided after it settled, with who and why; the trail ends with the void', () => {
    const folded = foldReplay(replayOf(events, 2, 1));
    expect(folded.steps.every((s) => s.matchesService)).toBe(true);
    expect(recheckCoup(folded)).toEqual({
      kind: 'voided',
      reason: 'cards exposed',
      by: 'sam',
      afterSettling: true,
    });
    const trail = auditTrail(folded);
    expect(trail.map((e) => e.kind)).toEqual(['original', 'void']);
    expect(trail[1]).toMatchObject({
      by: 'sam',
      role: 'supervisor',
      reason: 'cards exposed',
      returned: 1000,
    });
  });

  it('a correction the cards do not bear out is flagged, in the check and in the trail', () => {
    const replay = replayOf(events, 1, 1);
    const steps = replay.steps.map((s) =>
      s.event.type === 'SettledCoupCorrected'
        ? { ...s, event: { ...s.event, data: { ...(s.event.data as object), playerTotal: 8 } } }
        : s,
    );
    const folded = foldReplay({ ...replay, steps });
    const check = recheckCoup(folded);
    expect(check.kind === 'checked' && check.fields.filter((f) => !f.same).map((f) => f.name)).toEqual([
      'playerTotal',
    ]);
    expect(auditTrail(folded).map((e) => e.kind !== 'void' && e.result.matchesCards)).toEqual([true, false]);
  });

  it('a hand never put right after it settled has no audit trail', () => {
    expect(auditTrail(foldReplay(replayOf(liveTable(), 1)))).toEqual([]);
  });
});
