import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../../..');
const coup = (...args: string[]) =>
  spawnSync(process.execPath, ['tools/coup.mjs', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });

describe('tools/coup.mjs runs the CLI from the repository root', () => {
  test('odds --decks 8 --json prints the exact odds and exits 0', () => {
    const r = coup('odds', '--decks', '8', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.decks).toBe(8);
    expect(json.counts).toMatchObject({
      total: '4998398275503360',
      banker: '2292252566437888',
      player: '2230518282592256',
      tie: '475627426473216',
    });
    expect(json.probabilities.banker.toFixed(6)).toBe('0.458597');
    expect(json.houseEdge.player.toFixed(4)).toBe('0.0124');
  });

  test('a bad call exits 2 with the message on stderr and nothing on stdout', () => {
    const r = coup('odds', '--decks', '9');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("option '--decks' must be from 1 to 8, got 9");
    const unknown = coup('deal');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'deal'");
  });
});
