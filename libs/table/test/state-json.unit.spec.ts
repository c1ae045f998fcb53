/**
 * `evolve` builds the state's objects field by field (evolve-copy.ts): the states it folds must be the same JSON,
 * key order included, as before (snapshots and read models store them). The hash is of every state folded from
 * the events of the corpus's first 400 sequences, as the object spreads of `evolve` made them.
 */
import { createHash } from 'node:crypto';
import { type TableEvent, type TableState, evolve, initialState } from '../src';
import { runSequence, sequences } from './golden/corpus';

const EXPECTED = '8b032c5369d8052aa944e1a7fd7ec8ca1787f9d0f8ca7d5fcf19ac5211416062';

describe('the states evolve folds', () => {
  it('are the same JSON as before, key order included', () => {
    const hash = createHash('sha256');
    sequences(400).forEach((sequence, index) => {
      let state: TableState = initialState;
      for (const record of runSequence(sequence, index)) {
        if (!('events' in record)) continue;
        for (const event of record.events) {
          state = evolve(state, event as TableEvent);
          hash.update(JSON.stringify(state));
        }
      }
    });
    expect(hash.digest('hex')).toBe(EXPECTED);
  });
});
