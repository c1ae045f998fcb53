/**
 * `@coup/engine`: the rules of baccarat (Punto Banco), pure. No I/O, no clock, no randomness of its own: seeds
 * come in as data. Runs unchanged in Node and in a browser.
 */
export * from './errors';
export * from './cards';
export * from './coup';
export * from './dealer';
export * from './bets';
export * from './settlement';
export * from './shuffle';
export * from './shoe';
export * from './odds';
export { type SimulateOptions, type SimulationResult, simulate } from './simulate';
export type { BetPayoutCount, BetTally, SimulatedBets } from './simulate-bets';
export {
  type BetZScores,
  type ExactBetFigures,
  type SimulationZScores,
  betZScores,
  simulationZScores,
} from './simulate-z';
