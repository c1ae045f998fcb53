/**
 * The architecture is enforced, not described: probe files placed (virtually) inside each project are linted
 * with the workspace's real ESLint config, and the forbidden imports and calls must come out as errors.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const pure = [
  'libs/engine/src/probe.ts',
  'libs/table/src/probe.ts',
  'libs/auth/src/staff/probe.ts',
  'libs/projections/src/read-models/kernel/probe.ts',
  'libs/projections/src/read-models/hand-history/probe.ts',
  'libs/projections/src/read-models/probe.ts',
  'libs/projections/src/replay/wire.ts',
];

const importsTestSupport =
  "import { FakeEsdbClient } from '@coup/event-store/testing';\nexport const x = FakeEsdbClient;\n";

const probes = {
  clean: pure.map((filePath) => ({ filePath, code: 'export const x = [1, 2].map((n) => n * 2);\n' })),
  nodeBuiltins: pure.map((filePath) => ({
    filePath,
    code: "import { readFileSync } from 'node:fs';\nimport { join } from 'path';\nexport const f = [readFileSync, join];\n",
  })),
  clockAndRandomness: pure.map((filePath) => ({
    filePath,
    code: 'export const a = Date.now();\nexport const b = new Date();\nexport const c = Math.random();\nexport const d = process.env;\n',
  })),
  frameworks: pure.map((filePath) => ({
    filePath,
    code: "import { Injectable } from '@nestjs/common';\nimport Database from 'better-sqlite3';\nexport const i = [Injectable, Database];\n",
  })),
  thrownString: [
    { filePath: 'libs/engine/src/probe.ts', code: "export function f(): never {\n  throw 'bad';\n}\n" },
  ],
  engineToStore: [
    {
      filePath: 'libs/engine/src/probe.ts',
      code: "import * as s from '@coup/event-store';\nexport const x = s;\n",
    },
  ],
  tableToStore: [
    {
      filePath: 'libs/table/src/probe.ts',
      code: "import * as s from '@coup/event-store';\nexport const x = s;\n",
    },
  ],
  browserToPure: [
    {
      filePath: 'apps/dealer-console/src/probe.ts',
      code: "import * as e from '@coup/engine';\nexport const x = e;\n",
    },
  ],
  browserToStore: [
    {
      filePath: 'apps/dealer-console/src/probe.ts',
      code: "import * as s from '@coup/event-store';\nexport const x = s;\n",
    },
  ],
  foldToSqlite: [
    {
      filePath: 'libs/projections/src/read-models/hand-history/probe.ts',
      code: "import { handHistoryStorage } from './sqlite/storage';\nexport const x = handHistoryStorage;\n",
    },
  ],
  sqliteFolder: [
    {
      filePath: 'libs/projections/src/read-models/hand-history/sqlite/probe.ts',
      code: "import Database from 'better-sqlite3';\nimport { join } from 'node:path';\nexport const x = [Database, join];\n",
    },
  ],
  browserToProjections: [
    {
      filePath: 'apps/dealer-console/src/probe.ts',
      code: "import type { HandSummary } from '@coup/projections/wire';\nexport type X = HandSummary;\n",
    },
    {
      filePath: 'apps/dealer-console/src/probe.ts',
      code: "import type { ReadModels } from '@coup/projections';\nexport type X = ReadModels;\n",
    },
    {
      filePath: 'apps/dealer-console/src/probe.ts',
      code: "import { HandSummary } from '@coup/projections/wire';\nexport type X = HandSummary;\n",
    },
  ],
  wireTypesOnly: [
    {
      filePath: 'libs/projections/src/replay/wire.ts',
      code: "import type { TableView } from '@coup/table';\nexport type * from '../read-models/ledger/wire';\nexport type X = TableView;\n",
    },
    {
      filePath: 'libs/projections/src/replay/wire.ts',
      code: "import { ONLINE_RULES } from '@coup/table';\nexport * from '../read-models/ledger/wire';\nexport const x = ONLINE_RULES;\n",
    },
  ],
  serviceToAll: [
    {
      filePath: 'apps/table-service/src/probe.ts',
      code: "import * as t from '@coup/table';\nimport * as s from '@coup/event-store';\nexport const x = [t, s];\n",
    },
  ],
  capabilityToCapability: [
    {
      filePath: 'libs/table/src/capabilities/betting/probe.ts',
      code: "import { deal } from '../dealing/deal';\nimport { buyIn } from '../../capabilities/tables-and-players/buy-in';\nimport { COMMAND_SPECS } from '../../commands';\nexport const x = [deal, buyIn, COMMAND_SPECS];\n",
    },
  ],
  capabilityToKernel: [
    {
      filePath: 'libs/table/src/capabilities/betting/probe.ts',
      code: "import { refuse } from '../../kernel';\nimport { SPOTS } from '../../vocabulary';\nimport { playerOf } from '../../state';\nimport { checkStakes } from './stakes';\nexport const x = [refuse, SPOTS, playerOf, checkStakes];\n",
    },
  ],
  capabilityNodeBuiltin: [
    {
      filePath: 'libs/table/src/capabilities/betting/probe.ts',
      code: "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
    },
  ],
  testSupportInProduction: [
    'apps/table-service/src/probe.ts',
    'apps/cli/src/commands/probe.ts',
    'libs/projections/src/runner/probe.ts',
    'libs/projections/src/read-models/ledger/probe.ts',
  ].map((filePath) => ({ filePath, code: importsTestSupport })),
  testSupportInTests: [
    'apps/table-service/src/probe.int.spec.ts',
    'apps/table-service/test/probe.ts',
    'libs/projections/src/testing/probe.ts',
  ].map((filePath) => ({ filePath, code: importsTestSupport })),
};
type Group = keyof typeof probes;
let errors: Record<Group, string[][]>;

beforeAll(() => {
  const groups = Object.keys(probes) as Group[];
  const flat = groups.flatMap((g) => probes[g]);
  const out = JSON.parse(
    execFileSync(process.execPath, [join(__dirname, 'lint-probes.mjs')], {
      input: JSON.stringify(flat),
    }).toString(),
  ) as string[][];
  let i = 0;
  errors = Object.fromEntries(groups.map((g) => [g, probes[g].map(() => out[i++]!)])) as Record<
    Group,
    string[][]
  >;
});

const joined = (list: string[]) => list.join('\n');
const boundaryErrors = (list: string[]) => list.filter((e) => e.startsWith('@nx/enforce-module-boundaries'));

describe('pure libraries stay pure', () => {
  it('a clean file passes in every pure library', () => {
    expect(errors.clean).toEqual(pure.map(() => []));
  });

  it('Node built-ins are blocked', () => {
    for (const list of errors.nodeBuiltins) {
      expect(list.filter((e) => e.startsWith('no-restricted-imports'))).toHaveLength(2);
    }
  });

  it('the clock, randomness and process globals are blocked', () => {
    for (const list of errors.clockAndRandomness) {
      expect(joined(list)).toMatch(/no-restricted-properties: 'Date.now' is restricted.*No clock/);
      expect(joined(list)).toMatch(/no-restricted-syntax: No clock/);
      expect(joined(list)).toMatch(/no-restricted-properties: 'Math.random' is restricted.*No randomness/);
      expect(joined(list)).toMatch(/no-restricted-globals: .*global 'process'/);
    }
  });

  it('frameworks and storage are blocked', () => {
    for (const list of errors.frameworks) {
      expect(list.filter((e) => e.startsWith('no-restricted-imports'))).toHaveLength(2);
    }
  });

  it("a read model's fold may not import its sqlite/ folder, which alone may use SQLite and Node", () => {
    expect(errors.foldToSqlite[0]!.filter((e) => e.startsWith('no-restricted-imports'))).toHaveLength(1);
    expect(joined(errors.foldToSqlite[0]!)).toMatch(/SQLite code stays in sqlite/);
    expect(errors.sqliteFolder[0]!.filter((e) => e.startsWith('no-restricted-'))).toEqual([]);
  });

  it('a thrown string is blocked', () => {
    expect(joined(errors.thrownString[0]!)).toMatch(/never strings/);
  });
});

describe('module boundaries between projects', () => {
  it('the engine may not import the event store (pure -> infra)', () => {
    expect(boundaryErrors(errors.engineToStore[0]!)).toHaveLength(1);
  });

  it('the table decider may not import the event store', () => {
    expect(boundaryErrors(errors.tableToStore[0]!)).toHaveLength(1);
  });

  it('the browser app may import pure libraries only', () => {
    expect(boundaryErrors(errors.browserToPure[0]!)).toEqual([]);
    expect(boundaryErrors(errors.browserToStore[0]!)).toHaveLength(1);
  });

  it("the browser app may import the projections' wire types only, as types", () => {
    expect(errors.browserToProjections[0]!).toEqual([]);
    expect(boundaryErrors(errors.browserToProjections[1]!)).toHaveLength(1);
    expect(boundaryErrors(errors.browserToProjections[2]!)).toEqual([]);
    expect(joined(errors.browserToProjections[2]!)).toMatch(
      /no-restricted-imports: .*only types from the read side/,
    );
  });

  it("the projections' wire modules import and re-export types only", () => {
    expect(errors.wireTypesOnly[0]!).toEqual([]);
    const list = errors.wireTypesOnly[1]!.filter((e) =>
      e.startsWith('@typescript-eslint/no-restricted-imports'),
    );
    expect(list).toHaveLength(2);
  });

  it('the service may import every library', () => {
    expect(boundaryErrors(errors.serviceToAll[0]!)).toEqual([]);
  });
});

describe('test support stays out of production', () => {
  it('a production file may not import @coup/event-store/testing', () => {
    for (const list of errors.testSupportInProduction) {
      const restricted = list.filter((e) => e.startsWith('no-restricted-imports'));
      expect(restricted).toHaveLength(1);
      expect(restricted[0]).toMatch(/Test support must not ship in a production entry/);
    }
  });

  it('a spec, a test helper and a testing/ folder may import it', () => {
    expect(errors.testSupportInTests).toEqual([[], [], []]);
  });
});

describe('capabilities of the table decider', () => {
  it('a capability may not import another capability or the registry of commands', () => {
    const list = errors.capabilityToCapability[0]!.filter((e) => e.startsWith('no-restricted-imports'));
    expect(list).toHaveLength(3);
  });

  it('a capability imports the kernel, the vocabulary, the model and its own files', () => {
    expect(errors.capabilityToKernel[0]!).toEqual([]);
  });

  it('a capability stays pure', () => {
    expect(errors.capabilityNodeBuiltin[0]!.filter((e) => e.startsWith('no-restricted-imports'))).toHaveLength(1);
  });
});
