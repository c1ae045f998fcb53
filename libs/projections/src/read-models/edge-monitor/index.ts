/** The remaining-shoe edge monitor: its fold, schema, wire types, the shoe's composition and the odds before a round. */
export * from './schema';
export * from './fold';
export * from './wire';
export { type BetValue, type EdgeRules, edgeRulesOf, favourable, monitored, valuesOf } from './composition';
export { shoeOddsBefore } from './shoe-odds';
