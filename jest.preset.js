// Shared Jest setup for every project: TypeScript through ts-jest (transpile only: `typecheck` checks
// types), workspace libraries resolved to their sources, and the spec kinds named by file suffix.
const path = require('node:path');

const libs = ['engine', 'table', 'event-store', 'projections', 'auth'];
const moduleNameMapper = {
  ...Object.fromEntries(
    libs.map((lib) => [`^@coup/${lib}$`, path.join(__dirname, 'libs', lib, 'src', 'index.ts')]),
  ),
  // The read side's wire types alone (the browser's one way into @coup/projections).
  '^@coup/projections/wire$': path.join(__dirname, 'libs', 'projections', 'src', 'wire.ts'),
  // The read side's test support (drivers, scenarios, corpora, COPY helpers, query-answer comparers), kept out of its
  // main entry.
  '^@coup/projections/testing$': path.join(__dirname, 'libs', 'projections', 'src', 'testing', 'index.ts'),
  // The event store's test support (the fake EventStoreDB client), kept out of its main entry.
  '^@coup/event-store/testing$': path.join(__dirname, 'libs', 'event-store', 'src', 'testing', 'index.ts'),
};

// ESM-only packages (the Parquet writer and reader, ADR-34): jest's CommonJS runtime cannot require them, so their
// sources are compiled to CommonJS like ours. Node itself requires them as they are (require(esm), Node 20.19+).
const esmPackages = ['hyparquet', 'hyparquet-writer'];
const esmSources = `/node_modules/(${esmPackages.join('|')})/.+\\.js$`;

/** @param {string} projectDir @param {object} [extra] */
module.exports = function preset(projectDir, extra = {}) {
  return {
    rootDir: projectDir,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    transform: {
      '^.+\\.tsx?$': [
        'ts-jest',
        { tsconfig: path.join(projectDir, 'tsconfig.spec.json'), diagnostics: false },
      ],
      [esmSources]: [
        'ts-jest',
        {
          tsconfig: { allowJs: true, module: 'commonjs', target: 'es2022', isolatedModules: true },
          diagnostics: false,
        },
      ],
    },
    transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
    moduleNameMapper,
    moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
    ...extra,
  };
};
