/** The table's vocabulary: who acts, the nouns, the events, the ids and stream names, the errors. */
export * from './actors';
export * from './errors';
export * from './events';
export * from './ids';
export * from './online';
export * from './streams';
export * from './table';
