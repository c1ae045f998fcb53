import type { SealedFields } from '@coup/event-store';
import { SNAPSHOT_TYPE } from '../tables/snapshots';

/**
 * Every place the service stores a seed that may not be revealed yet, sealed at rest (ARCHITECTURE.md, seeds at
 * rest):
 * - `ShoeStarted.seed`: every rng shoe, whether started by StartShoe, by OpenBetting on every-coup tables, or in
 *   advance by a Deal's `nextSeed` (player-dealt tables commit the next shoe before it is played);
 * - a table snapshot (`tablesnapshot-<tableId>`): its current shoe's seed, kept beside the state's JSON text
 *   (`seed`; snapshots of version 2 held it in their state object, `state.shoe.seed`).
 * `ShoeEnded.seed` is the reveal and stays in clear, and so does every commitment.
 */
export const SEED_FIELDS: SealedFields = {
  ShoeStarted: [['seed']],
  [SNAPSHOT_TYPE]: [['seed'], ['state', 'shoe', 'seed']],
};
