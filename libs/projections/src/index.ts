/**
 * `@coup/projections`: the read side of Coup. Pure read-model folds (`models`), the SQLite projection runner
 * (`runner`), replay and verification of hands (`replay`), and the queries the service answers from the read
 * models (`read`).
 */
export * from './read-models';
export * from './runner';
export * from './read';
export * from './replay';
export * as testing from './testing';
export * from './sql';
export * from './reports';
export * from './export';
export * from './read-models-setting';
