import { handHash, parseReplayRoute } from './route';

describe('replay routes', () => {
  it('reads the hand list, a hand, and a hand at a step', () => {
    expect(parseReplayRoute('#/tables/T1/hands')).toEqual({ kind: 'hands', tableId: 'T1' });
    expect(parseReplayRoute('#/tables/T1/hands/12')).toEqual({
      kind: 'hand',
      tableId: 'T1',
      roundNo: 12,
      step: null,
    });
    expect(parseReplayRoute('#/tables/online-p_1/hands/3?step=5')).toEqual({
      kind: 'hand',
      tableId: 'online-p_1',
      roundNo: 3,
      step: 5,
    });
  });

  it('is not a replay route otherwise; a malformed step is ignored', () => {
    for (const h of ['#/tables/T1', '#/play', '', '#/tables/T1/hands/0', '#/tables/T 1/hands/2'])
      expect(parseReplayRoute(h)).toBeNull();
    expect(parseReplayRoute('#/tables/T1/hands/2?step=-1')).toMatchObject({ step: null });
  });

  it('writes the link it reads', () => {
    expect(parseReplayRoute(handHash('T1', 7, 4))).toEqual({
      kind: 'hand',
      tableId: 'T1',
      roundNo: 7,
      step: 4,
    });
  });
});
