import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('the V8 flags the service runs with', () => {
  const { flags } = JSON.parse(read('tools/service-node-flags.json')) as { flags: string[] };

  it('are V8 flags', () => {
    expect(flags.length).toBeGreaterThan(0);
    for (const flag of flags) expect(flag).toMatch(/^--[a-z-]+(=\S+)?$/);
  });

  it('are the ones the Docker image starts it with', () => {
    const cmd = read('Dockerfile')
      .split('\n')
      .find((line) => line.startsWith('CMD '));
    const args = JSON.parse(cmd!.slice(4)) as string[];
    expect(args[0]).toBe('node');
    for (const flag of flags) expect(args).toContain(flag);
    expect(args.indexOf(flags[0]!)).toBeLessThan(args.indexOf('apps/table-service/dist/main.js'));
  });

  it('are read and passed on by npm start and by bench:service', () => {
    const start = read('tools/start.mjs');
    expect(start).toContain('service-node-flags.json');
    expect(start).toMatch(/spawn\(\s*process\.execPath,\s*\[[^\]]*\.\.\.flags/);
    const bench = read('tools/bench/service.bench.ts');
    expect(bench).toContain('service-node-flags.json');
    expect(bench).toMatch(/NODE_ARGS = \[\.\.\.SERVICE_FLAGS/);
    expect(bench).toMatch(/\[\.\.\.SERVICE_FLAGS, '--import', 'tsx'/);
  });

  it("are the projection process's and the CLI's too (the read side folds alike in every process)", () => {
    const coup = read('tools/coup.mjs');
    expect(coup).toContain('service-node-flags.json');
    expect(coup).toMatch(/spawn\(\s*process\.execPath,\s*\[\.\.\.flags, '--import', 'tsx'/);
    const compose = read('docker-compose.yml')
      .split('\n')
      .find((line) => line.includes("'apps/cli/dist/main.js', 'projections', 'run'"));
    for (const flag of flags) expect(compose).toContain(`'${flag}'`);
    expect(read('package.json')).toContain('run-ts.mjs --service-flags tools/bench/projections.bench.ts');
    expect(read('tools/bench/pg-lag-procs.ts')).toContain(
      "[...SERVICE_FLAGS, CLI_MAIN, 'projections', 'run']",
    );
  });
});
