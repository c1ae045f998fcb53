// @coup/projections/testing: test support, kept out of the library's main entry so that no production process
// (the service, its projection worker, the CLI) loads it. Resolved from the sources by tsconfig.base.json's paths
// and jest.preset.js's moduleNameMapper; not part of the built library (tsconfig.lib.json excludes the testing
// folders). The library's own specs import these modules by relative path.
export * from './driver';
export * from './events';
export * from './store';
export * from './scenario';
export * from './coups';
export * from './corpus';
export * from './pg-copy';
export * from './query-answers';
