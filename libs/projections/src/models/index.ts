/** The read models: pure folds (see `types.ts`). */
export * from './types';
export * from './table-view';
export * from './hand-history';
export * from './roads';
export * from './stats';
export * from './ledger';
export * from './memory';
export { withoutSecrets } from './secrets';

import { handHistoryProjection } from './hand-history';
import { ledgerProjection } from './ledger';
import { roadsProjection } from './roads';
import { statsProjection } from './stats';
import { tableViewProjection } from './table-view';
import type { AnyProjection } from './types';

/** Every projection, in the order the runner applies them. */
export const PROJECTIONS: readonly AnyProjection[] = [
  tableViewProjection,
  handHistoryProjection,
  roadsProjection,
  statsProjection,
  ledgerProjection,
];
