/**
 * Seeds at rest: a copy of the data folder (events, WAL, read models, catalog, snapshots) never holds a seed that is
 * not revealed yet, only its commitment; with the same key the service restarts and deals from the same shuffle,
 * and replay and verify pass from the events alone once the shoe is revealed.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSnapshots } from '@coup/event-store';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { SeedSource } from '../src/tables/edge-inputs';
import { SEED_KEY, startService, type Harness } from './harness';

jest.setTimeout(120_000);

/** The CSPRNG seed source, remembering every seed it gave. */
class RecordingSeeds extends SeedSource {
  readonly given: string[] = [];
  override next(): string {
    const seed = super.next();
    this.given.push(seed);
    return seed;
  }
}

const ok = (res: { status: number; body: any }, status = 200) => {
  if (res.status !== status)
    throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

/** Every file of a folder (recursively) with its bytes. */
function filesOf(dir: string): { name: string; bytes: Buffer }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({
      name: join(e.parentPath, e.name).slice(dir.length + 1),
      bytes: readFileSync(join(e.parentPath, e.name)),
    }));
}

/** The ways a seed could be written down: hex either case, base64 and base64url of its bytes. */
function spellings(seedHex: string): string[] {
  const bytes = Buffer.from(seedHex, 'hex');
  return [
    seedHex.toLowerCase(),
    seedHex.toUpperCase(),
    bytes.toString('base64'),
    bytes.toString('base64url'),
  ];
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const found = await probe();
    if (found !== null && found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function revealedSeeds(h: Harness): Promise<Set<string>> {
  const revealed = new Set<string>();
  for await (const e of h.app.get(EventStoreHandle).store.readAll())
    if (e.type === 'ShoeEnded') {
      const seed = (e.data as { seed: string | null }).seed;
      if (seed !== null) revealed.add(seed);
    }
  return revealed;
}

describe('unrevealed seeds are sealed at rest', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'coup-seeds-'));
  const copy = mkdtempSync(join(tmpdir(), 'coup-seeds-copy-'));
  const env = { COUP_SNAPSHOT_EVERY: '10', COUP_SEED_KEY: SEED_KEY };
  const seeds = new RecordingSeeds();
  let h: Harness;
  afterAll(async () => {
    await h?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(copy, { recursive: true, force: true });
  });

  let shoeSeed = '';
  let commitment = '';
  let round = 0;

  it('a copy of the data folder holds no unrevealed seed (events, WAL, snapshots, read models), only commitments', async () => {
    h = await startService(env, { seeds }, dataDir);
    const dealer = h.token('dealer', 'd1');
    // an rng shoe table, mid-shoe, with a snapshot of its state taken mid-shoe
    ok(
      await h.api('POST', '/api/tables', { body: { tableId: 'T1', rules: { dealing: 'rng', decks: 1 } } }),
      201,
    );
    ok(await h.api('POST', '/api/tables/T1/players/p1/buy-in', { body: { amount: 100_000 } }));
    commitment = ok(await h.api('POST', '/api/tables/T1/shoes', { token: dealer }), 201).commitment;
    shoeSeed = seeds.given[seeds.given.length - 1]!;
    for (let i = 0; i < 3; i++) {
      round = ok(await h.api('POST', '/api/tables/T1/rounds', { token: dealer }), 201).roundNo;
      ok(
        await h.api('POST', `/api/tables/T1/rounds/${round}/bets`, {
          body: { playerId: 'p1', spot: 'banker', amount: 1000 },
        }),
        201,
      );
      ok(await h.api('POST', `/api/tables/T1/rounds/${round}/close`, { token: dealer }));
      ok(await h.api('POST', `/api/tables/T1/rounds/${round}/deal`, { token: dealer }));
    }
    // an every-coup table with betting open on a fresh shuffle
    ok(
      await h.api('POST', '/api/tables', {
        body: { tableId: 'E1', rules: { dealing: 'rng', shuffle: 'every-coup' } },
      }),
      201,
    );
    ok(await h.api('POST', '/api/tables/E1/rounds', { token: dealer }), 201);
    // an online table after a coup: the next shoe is committed in advance (nextSeed)
    const me = h.token('player', 'ana');
    const online = ok(await h.api('POST', '/api/online/tables', { token: me }));
    ok(await h.api('POST', '/api/online/tables/online-ana/buy-in', { token: me, body: { amount: 10_000 } }));
    const onlineRound = online.view.round.roundNo;
    ok(
      await h.api('POST', `/api/tables/online-ana/rounds/${onlineRound}/bets`, {
        token: me,
        body: { playerId: 'ana', spot: 'player', amount: 500 },
      }),
      201,
    );
    ok(await h.api('POST', `/api/tables/online-ana/rounds/${onlineRound}/deal`, { token: me }));

    const store = h.app.get(EventStoreHandle).store;
    await until('a snapshot of T1', () => store.streamHead('tablesnapshot-T1'));
    await until('the read side', async () => {
      const hand = await h.api('GET', `/api/tables/T1/hands/${round}`, { token: h.token('compliance') });
      return hand.status === 200 ? hand : null;
    });

    cpSync(dataDir, copy, { recursive: true });
    const revealed = await revealedSeeds(h);
    const unrevealed = seeds.given.filter((s) => !revealed.has(s));
    // T1's shoe, E1's coup, and the online table's next shoe
    expect(unrevealed).toEqual(expect.arrayContaining([shoeSeed]));
    expect(unrevealed.length).toBeGreaterThanOrEqual(3);
    expect(revealed.size).toBeGreaterThanOrEqual(1);

    const files = filesOf(copy);
    expect(files.map((f) => f.name)).toEqual(
      expect.arrayContaining(['events.sqlite', 'events.sqlite-wal', 'read-models.sqlite', 'catalog.sqlite']),
    );
    const found = unrevealed.flatMap((seed) =>
      spellings(seed).flatMap((s) =>
        files.filter((f) => f.bytes.includes(s)).map((f) => `${s} in ${f.name}`),
      ),
    );
    expect(found).toEqual([]);
    // Snapshots hold the state's text compressed, where the search above cannot see: read back, they hold none either.
    const snapshotTexts: string[] = [];
    for (const tableId of ['T1', 'E1', 'online-ana'])
      for await (const snap of readSnapshots(store, `tablesnapshot-${tableId}`))
        snapshotTexts.push(JSON.stringify({ header: snap.header, body: snap.ok ? snap.body : null }));
    expect(snapshotTexts.length).toBeGreaterThan(0);
    expect(unrevealed.filter((seed) => snapshotTexts.some((t) => t.includes(seed)))).toEqual([]);
    // the commitment stays public, and a revealed seed is in clear as before
    expect(files.some((f) => f.bytes.includes(commitment))).toBe(true);
    const [someRevealed] = [...revealed];
    expect(files.some((f) => f.bytes.includes(someRevealed!))).toBe(true);
  });

  it('with the same key, the restarted service deals from the same shuffle; replay and verify pass once revealed', async () => {
    await h.close();
    h = await startService(env, { seeds }, dataDir);
    const dealer = h.token('dealer', 'd1');
    round = ok(await h.api('POST', '/api/tables/T1/rounds', { token: dealer }), 201).roundNo;
    ok(await h.api('POST', `/api/tables/T1/rounds/${round}/close`, { token: dealer }));
    ok(await h.api('POST', `/api/tables/T1/rounds/${round}/deal`, { token: dealer }));
    // closing the table ends the shoe: its seed is revealed in clear
    ok(await h.api('DELETE', '/api/tables/T1?cashOutAll=true'));
    expect(await revealedSeeds(h)).toContain(shoeSeed);

    const compliance = h.token('compliance');
    const verified = await until('the verification of the last hand', async () => {
      const v = await h.api('GET', `/api/tables/T1/hands/${round}/verify`, { token: compliance });
      return v.status === 200 && !v.body.checks.some((c: { status: string }) => c.status === 'pending')
        ? v.body
        : null;
    });
    expect(verified.checks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'commitment', status: 'pass' }),
        expect.objectContaining({ name: 'shuffle', status: 'pass' }),
        expect.objectContaining({ name: 'chain', status: 'pass' }),
      ]),
    );
    expect(verified.ok).toBe(true);
    const first = await h.api('GET', `/api/tables/T1/hands/1/verify`, { token: compliance });
    expect([first.status, first.body.ok]).toEqual([200, true]);
    const replay = ok(await h.api('GET', `/api/tables/T1/hands/${round}/replay`, { token: compliance }));
    expect(replay.steps.length).toBeGreaterThan(0);
  });
});
