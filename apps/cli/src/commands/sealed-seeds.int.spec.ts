/**
 * The CLI reads a store whose unrevealed seeds are sealed (as the service writes them) without the seed key: the
 * projections, replay and verify need no seed before its reveal, and verify checks the chain over what is stored.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore, FieldSealer, SealedEventStore, SealKeys } from '@coup/event-store';
import * as testing from '@coup/projections/testing';
import type { Actor } from '@coup/table';
import { fakeIo } from '../testing';
import { projections } from './projections';
import { replay } from './replay';
import { verify } from './verify';

const SUPER: Actor = { id: 'super-1', role: 'supervisor' };
let dir: string;
const saved = process.env['COUP_DATA_DIR'];
/** The seed of the shoe still in play when the store is read. */
let unrevealed = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coup-cli-sealed-'));
  process.env['COUP_DATA_DIR'] = dir;
  const raw = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  const store = new SealedEventStore(
    raw,
    new FieldSealer(new SealKeys([Buffer.alloc(32, 9)]), { ShoeStarted: [['seed']] }),
  );
  const d = new testing.TableDriver({ tableId: 'T1', players: 2, seed: 4 });
  await testing.appendTable(store, 'T1', d.open());
  for (let i = 0; i < 4; i++) await testing.appendTable(store, 'T1', d.playRound());
  await testing.appendTable(store, 'T1', d.execute('EndShoe', {}, SUPER));
  // a second shoe, still in play
  unrevealed = d.nextSeed();
  await testing.appendTable(store, 'T1', d.execute('StartShoe', { seed: unrevealed }));
  await testing.appendTable(store, 'T1', d.playRound());
  await raw.close();
});

afterAll(() => {
  if (saved === undefined) delete process.env['COUP_DATA_DIR'];
  else process.env['COUP_DATA_DIR'] = saved;
  rmSync(dir, { recursive: true, force: true });
});

test('the store holds no unrevealed seed in clear', () => {
  const bytes = Buffer.concat(
    ['events.sqlite', 'events.sqlite-wal'].map((f) => {
      try {
        return readFileSync(join(dir, f));
      } catch {
        return Buffer.alloc(0);
      }
    }),
  );
  expect(bytes.includes(unrevealed)).toBe(false);
  expect(bytes.includes('sealed:v1:')).toBe(true);
});

test('with no key: the projections rebuild, every revealed hand verifies, and a hand replays', async () => {
  expect(await projections.run(['rebuild'], fakeIo(true))).toBe(0);
  const checked = fakeIo();
  expect(await verify.run(['--table', 'T1', '--from', '1', '--to', '4', '--json'], checked)).toBe(0);
  const result = JSON.parse(checked.out());
  expect(result).toMatchObject({ ok: true, hands: 4 });
  const io = fakeIo();
  expect(await replay.run(['--table', 'T1', '--round', '5'], io)).toBe(0);
  expect(io.out()).toMatch(/^table T1, round 5, shoe 2/);
  expect(io.out()).not.toContain(unrevealed);
  expect(io.out()).not.toContain('sealed:v1:');
});

test('the hand of the shoe in play verifies all it can, its seed checks pending until the reveal', async () => {
  const io = fakeIo();
  expect(await verify.run(['--table', 'T1', '--from', '5', '--to', '5', '--json'], io)).toBe(0);
  const [hand] = JSON.parse(io.out()).results;
  expect(
    Object.fromEntries(hand.checks.map((c: { name: string; status: string }) => [c.name, c.status])),
  ).toEqual({
    index: 'pass',
    chain: 'pass',
    coup: 'pass',
    settlements: 'pass',
    commitment: 'pending',
    shuffle: 'pending',
  });
});
