/**
 * `evolve` builds the state's objects field by field (evolve-copy.ts): the states it folds must be the same JSON,
 * key order included, as before (snapshots and read models store them). The hash is of every state folded from the
 * events of the corpus's first 400 sequences and of CASES: those first ones have settled coups voided but no side
 * bet, no round with a player cashed out since its coup settled and no settled coup corrected; CASES are every
 * sequence of the whole corpus that has one of those (found by folding all 10,000, which takes some 8 s here: too
 * long to run each time). Each case is counted and must be there, and a settled round keeping its own shoe's record
 * (a new shoe started) too.
 *
 * EXPECTED was taken with the object spreads of `evolve`, the code of commit 0328b3a^ (before evolve-copy.ts): its
 * tree extracted with `git archive 0328b3a^` into a folder of its own (with this repository's node_modules), this
 * file run there with jest, the hash read from the failure.
 */
import { createHash } from 'node:crypto';
import { isSideSpot } from '@coup/engine';
import { type TableEvent, type TableState, evolve, initialState } from '../src';
import { runSequence, sequences } from './golden/corpus';

const EXPECTED = '72f03e1f9545b34a4b8ea98cde142ec61572aa7b0fcdb28c78d06b45c171e20f';

const FIRST = 400;
/** The corpus's sequences (by index) with a side bet, a round with a player cashed out or a settled coup corrected. */
const CASES = [
  690, 796, 1140, 1677, 1984, 2179, 2332, 2642, 2794, 2871, 2993, 3217, 3853, 3885, 4009, 4049, 4113, 4301,
  4393, 4491, 4549, 4700, 5049, 5064, 5835, 6312, 6343, 6489, 6948, 7080, 7084, 7343, 7386, 7802, 8073, 8153,
  8189, 9227, 9525, 9646, 9802, 9931,
];

describe('the states evolve folds', () => {
  it('are the same JSON as before, key order included, side bets, cash-outs and settled corrections among them', () => {
    const all = sequences(CASES[CASES.length - 1]! + 1);
    const chosen = [...Array.from({ length: FIRST }, (_, index) => index), ...CASES];
    const hash = createHash('sha256');
    const seen = { sideBets: 0, cashedOut: 0, ownShoe: 0, settledCorrected: 0, settledVoided: 0 };
    for (const index of chosen) {
      let state: TableState = initialState;
      for (const record of runSequence(all[index]!, index)) {
        if (!('events' in record)) continue;
        for (const event of record.events as readonly TableEvent[]) {
          state = evolve(state, event);
          hash.update(JSON.stringify(state));
          if (event.type === 'BetPlaced' && isSideSpot(event.data.spot)) seen.sideBets += 1;
          if ((state.round?.cashedOut?.length ?? 0) > 0) seen.cashedOut += 1;
          if (state.round?.ownShoe !== undefined) seen.ownShoe += 1;
          if (event.type === 'SettledCoupCorrected') seen.settledCorrected += 1;
          if (event.type === 'SettledCoupVoided') seen.settledVoided += 1;
        }
      }
    }
    // each case folded at least once (a failure names the one missing)
    for (const [what, count] of Object.entries(seen)) expect({ [what]: count > 0 }).toEqual({ [what]: true });
    expect(hash.digest('hex')).toBe(EXPECTED);
  });
});
