// One lint config for the whole workspace. The architecture is enforced here, not just described:
// - Nx module boundaries: pure libraries (engine, table, the projections' folds) may import only other pure
//   libraries; the browser app may import only pure libraries; nothing imports an app.
// - Pure code may not touch I/O, frameworks, the clock or randomness: those arrive as command data.
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';

const nodeBuiltins = [
  'fs',
  'fs/promises',
  'path',
  'os',
  'child_process',
  'net',
  'http',
  'https',
  'http2',
  'crypto',
  'worker_threads',
  'cluster',
  'dgram',
  'dns',
  'tls',
  'stream',
  'zlib',
  'process',
  'timers',
  'perf_hooks',
  'readline',
  'v8',
  'vm',
];

/**
 * Test support stays out of production: another project's test entry (`@coup/<project>/testing`, e.g.
 * `@coup/event-store/testing` with the fake EventStoreDB client) may be imported by tests only. A project's own
 * `testing/` folder is imported by relative path from its specs; the Nx rule already forbids relative imports
 * into another project.
 */
const testSupportImports = {
  group: ['@coup/*/testing', '@coup/*/testing/**'],
  message:
    'Test support must not ship in a production entry: import a `@coup/<project>/testing` module from specs and test helpers only.',
};

/** Test files under a project's src/: specs, test helpers and fixtures. Everything else there is production. */
const testFiles = [
  '**/*.spec.ts',
  '**/*.spec.tsx',
  '**/test/**',
  '**/e2e/**',
  '**/testing/**',
  '**/testing.ts',
  '**/fixtures/**',
  '**/test-setup.ts',
];

/** Imports, globals and calls forbidden in pure code (engine, table decider, projection folds). */
const pureRules = {
  'no-restricted-imports': [
    'error',
    {
      paths: nodeBuiltins.map((name) => ({ name, message: 'Pure code does no I/O: pass data in instead.' })),
      patterns: [
        testSupportImports,
        { group: ['node:*'], message: 'Pure code does no I/O: Node built-ins are not allowed here.' },
        {
          group: ['@nestjs/*', 'better-sqlite3', '@eventstore/*', 'rxjs', 'ws', 'react', 'react-dom'],
          message: 'Pure code is framework- and storage-free.',
        },
      ],
    },
  ],
  'no-restricted-globals': [
    'error',
    ...[
      'process',
      'require',
      'setTimeout',
      'setInterval',
      'setImmediate',
      'fetch',
      'performance',
      'crypto',
      'window',
      'document',
      'localStorage',
    ].map((name) => ({
      name,
      message: `Pure code may not use the global '${name}': time, ids and randomness come in with the command.`,
    })),
  ],
  'no-restricted-properties': [
    'error',
    {
      object: 'Math',
      property: 'random',
      message: 'No randomness in pure code: seeds come in with the command.',
    },
    { object: 'Date', property: 'now', message: 'No clock in pure code: time comes in with the command.' },
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector: "NewExpression[callee.name='Date'][arguments.length=0]",
      message: 'No clock in pure code: time comes in with the command.',
    },
    {
      selector: "CallExpression[callee.name='Date']",
      message: 'No clock in pure code: time comes in with the command.',
    },
    { selector: 'ThrowStatement > Literal', message: 'Throw Error objects with a code, never strings.' },
  ],
};

/** Which project may import which, by tags. */
const moduleBoundaries = {
  enforceBuildableLibDependency: false,
  allow: [],
  depConstraints: [
    { sourceTag: 'layer:pure', onlyDependOnLibsWithTags: ['layer:pure'] },
    { sourceTag: 'layer:infra', onlyDependOnLibsWithTags: ['layer:pure', 'layer:infra'] },
    { sourceTag: 'platform:browser', onlyDependOnLibsWithTags: ['layer:pure'] },
    { sourceTag: 'layer:app', onlyDependOnLibsWithTags: ['layer:pure', 'layer:infra'] },
  ],
};

export default [
  {
    ignores: [
      '**/dist',
      '**/node_modules',
      '**/coverage',
      '**/.nx',
      'data',
      'tmp',
      '**/vite.config.*.timestamp*',
    ],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', moduleBoundaries],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Production files may not import test support. A later block that sets `no-restricted-imports` replaces
    // this one for its files, so it must keep `testSupportImports` (the pure blocks do, through pureRules).
    files: ['apps/*/src/**/*.ts', 'apps/*/src/**/*.tsx', 'libs/*/src/**/*.ts', 'libs/*/src/**/*.tsx'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', { patterns: [testSupportImports] }] },
  },
  {
    // Pure code: the engine, the table decider, the staff account decider, and the projections' folds. Specs may
    // use Node (fs, timers).
    files: ['libs/engine/src/**/*.ts', 'libs/table/src/**/*.ts', 'libs/auth/src/staff/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: pureRules,
  },
  {
    // The read models' pure parts: the kernel, each read model's folder but its `sqlite/` (the runner's: storage
    // layout and queries), and every `wire.ts` (the API's types, imported by the browser). They may not import
    // a `sqlite/` folder either; a read model's index.ts (its public face) may, to attach the storage.
    files: ['libs/projections/src/read-models/**/*.ts', 'libs/projections/src/**/wire.ts'],
    ignores: ['**/*.spec.ts', 'libs/projections/src/read-models/*/sqlite/**'],
    rules: {
      ...pureRules,
      'no-restricted-imports': [
        'error',
        {
          ...pureRules['no-restricted-imports'][1],
          patterns: [
            ...pureRules['no-restricted-imports'][1].patterns,
            { group: ['**/sqlite', '**/sqlite/**'], message: 'A fold does no I/O: SQLite code stays in sqlite/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/projections/src/read-models/*/index.ts'],
    rules: { 'no-restricted-imports': pureRules['no-restricted-imports'] },
  },
  {
    // The decider's capabilities (libs/table/src/capabilities/<capability>/<command>.ts) import the kernel, the
    // vocabulary and the table's model, never another capability nor the registry of commands (ADR on the layout).
    files: ['libs/table/src/capabilities/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: pureRules['no-restricted-imports'][1].paths,
          patterns: [
            ...pureRules['no-restricted-imports'][1].patterns,
            {
              regex: '^\\.\\./(?!\\.\\./)|(^|/)capabilities/',
              message: 'A capability may not import another capability: share through the kernel or the vocabulary.',
            },
            {
              regex: '^\\.\\./\\.\\./(commands|decide|reply|index)$',
              message: 'A capability may not import the registry of commands (it imports the capabilities).',
            },
          ],
        },
      ],
    },
  },
  {
    // The read side's wire types are types only, so the browser can take them without any code of the library.
    files: ['libs/projections/src/**/wire.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '.*',
              allowTypeImports: true,
              message: 'A wire module imports and re-exports types only (`import type`, `export type`).',
            },
          ],
        },
      ],
    },
  },
  {
    // The browser app's one way into the read side: the types of its API answers (`@coup/projections/wire`,
    // types only), imported as types, so no code of @coup/projections reaches the bundle.
    files: ['apps/dealer-console/src/**/*.ts', 'apps/dealer-console/src/**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { ...moduleBoundaries, allow: ['@coup/projections/wire'] }],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@coup/projections/wire',
              allowTypeImports: true,
              message: 'The browser takes only types from the read side: `import type`.',
            },
          ],
        },
      ],
    },
  },
  {
    // Browser tests run in Node beside the browser app: they start the service and sign tokens.
    files: ['apps/*/e2e/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/jest.config.cjs', '**/jest.*.config.cjs', '**/*.config.mjs', '**/*.config.ts', 'jest.preset.js'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/*.spec.tsx', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
];

export { pureRules };
