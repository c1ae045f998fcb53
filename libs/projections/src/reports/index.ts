/** The analysts' reports: SQL views over the an_ tables (both dialects) and the queries the REST reports run. */
export * from './views';
export * from './filters';
export * from './queries';
export type * from './wire';
