/**
 * `@coup/projections`: the read side of Coup. Pure read-model folds (`models`), the SQLite projection runner
 * (`runner`), replay and verification of hands (`replay`), and the queries the service answers from the read
 * models (`read`). Test support (table drivers, scenarios, corpora, the PostgreSQL COPY helper, query-answer
 * comparers) is `@coup/projections/testing` (src/testing/index.ts), never this entry: every production process (the
 * service, its projection worker, the CLI) loads this one.
 */
export * from './read-models';
export * from './runner';
export * from './read';
export * from './replay';
export * from './sql';
export * from './reports';
export * from './export';
export * from './read-models-setting';
