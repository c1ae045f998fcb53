// The Dockerfile's runtime image holds what the service and the CLI run, and no test tool: the EventStoreDB stand-in
// (tools/esdb-standin) and the test PostgreSQL (tools/postgres) are test doubles, never shipped. The build stage's
// gathering of the runtime files is run here, on a small tree shaped like the repository's.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

interface Stage {
  readonly from: string;
  readonly name: string | null;
  /** Its instructions, continuation lines joined, comments dropped. */
  readonly instructions: string[];
}

function stages(dockerfile: string): Stage[] {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const out: Stage[] = [];
  for (const line of lines) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) out.push({ from: from[1]!, name: from[2] ?? null, instructions: [] });
    else out.at(-1)?.instructions.push(line);
  }
  return out;
}

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const [build, runtime] = stages(dockerfile);

/** Every file under `dir`, relative to it. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('Dockerfile', () => {
  it('has a build stage and a runtime stage, the runtime one taking only the gathered runtime files', () => {
    expect(stages(dockerfile)).toHaveLength(2);
    expect(build!.name).toBe('build');
    const copies = runtime!.instructions.filter((i) => /^(COPY|ADD)\b/i.test(i));
    expect(copies).toEqual(['COPY --from=build /runtime /app']);
    for (const instruction of runtime!.instructions) expect(instruction).not.toMatch(/\btools\b/);
  });

  it('gathers package.json, node_modules and each workspace build: no sources, tests or tools', () => {
    const gather = build!.instructions.filter((i) => /^RUN\b.*\/runtime\b/.test(i));
    expect(gather).toHaveLength(1);
    const dir = mkdtempSync(join(tmpdir(), 'coup-image-'));
    try {
      const tree = join(dir, 'app');
      const out = join(dir, 'runtime');
      const present = [
        'package.json',
        'package-lock.json',
        'node_modules/pg/index.js',
        'libs/table/package.json',
        'libs/table/dist/index.js',
        'libs/table/src/index.ts',
        'libs/table/test/golden/corpus.ts',
        'libs/projections/package.json',
        'libs/projections/dist/index.js',
        'libs/projections/node_modules/.keep',
        'apps/table-service/package.json',
        'apps/table-service/dist/main.js',
        'apps/table-service/test/process.ts',
        'apps/cli/package.json',
        'apps/cli/dist/main.js',
        'apps/dealer-console/package.json',
        'apps/dealer-console/dist/index.html',
        'apps/dealer-console/src/main.tsx',
        'tools/esdb-standin/src/index.ts',
        'tools/postgres/index.js',
        'tools/service-node-flags.json',
        'nx.json',
      ];
      for (const file of present) {
        mkdirSync(dirname(join(tree, file)), { recursive: true });
        writeFileSync(join(tree, file), file);
      }
      const script = gather[0]!.replace(/^RUN\s+/, '').replace(/\/runtime\b/g, out);
      const run = spawnSync('sh', ['-ec', script], { cwd: tree, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(files(out)).toEqual(
        [
          'package.json',
          'node_modules/pg/index.js',
          'libs/table/package.json',
          'libs/table/dist/index.js',
          'libs/projections/package.json',
          'libs/projections/dist/index.js',
          'libs/projections/node_modules/.keep',
          'apps/table-service/package.json',
          'apps/table-service/dist/main.js',
          'apps/cli/package.json',
          'apps/cli/dist/main.js',
          'apps/dealer-console/package.json',
          'apps/dealer-console/dist/index.html',
        ].sort(),
      );
      expect(existsSync(join(out, 'tools'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs what the runtime files hold: the service (CMD) and the CLI (the compose projection process)', () => {
    const cmd = runtime!.instructions.find((i) => i.startsWith('CMD '));
    expect(cmd).toMatch(/"apps\/table-service\/dist\/main\.js"\]$/);
    const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    // the script after node and its options
    const scripts = [...compose.matchAll(/'node',(?:\s*'--[^']*',)*\s*'([^'-][^']*)'/g)].map((m) => m[1]);
    expect(scripts).toEqual(['apps/cli/dist/main.js']);
  });
});
