/**
 * `@coup/projections/wire`: the types of what the read side answers over the API, for the browser (types only,
 * no code: every `wire.ts` is linted as pure).
 */
export type * from './read-models/hand-history/wire';
export type * from './read-models/table-view/wire';
export type * from './read-models/roads/wire';
export type * from './read-models/stats/wire';
export type * from './read-models/ledger/wire';
export type * from './read-models/edge-monitor/wire';
export type * from './replay/wire';
export type * from './reports/wire';
