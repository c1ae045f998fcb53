/** The analysts' model: the star schema's fold and tables, the gaming-day clock, the bet types' exact figures. */
export * from './fold';
export * from './schema-facts';
export * from './schema-dims';
export * from './schema-sums';
export * from './gaming-day';
export * from './gaming-day-config';
export * from './bet-types';
export type { AnalystState, OpenRound, SettledCoup } from './step';
export type { AnalystRules, FactStatus } from './rows';
