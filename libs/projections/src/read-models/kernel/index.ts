/** What every read model is made of: the projection contract, the shared table fold, the in-memory tables. */
export * from './types';
export * from './memory';
export { withoutSecrets } from './secrets';
