/** The hand history read model: its fold, schema, wire types, SQLite storage and queries. */
import type { ProjectionModel } from '../kernel/types';
import { handHistoryFold } from './fold';
import { handHistoryStorage } from './sqlite/storage';
import type { HandHistoryState } from './state';

export * from './schema';
export * from './wire';
export type { BetLog, BetSummary } from './bet-log';
export type { HandHistoryState, OpenHand, ShoeRecord, SpanEnd } from './state';
export { handHistoryStorage } from './sqlite/storage';

/** The hand history as the runner runs it: the pure fold with its SQLite storage of big open hands. */
export const handHistoryProjection: ProjectionModel<HandHistoryState> = {
  ...handHistoryFold,
  storage: handHistoryStorage,
};
