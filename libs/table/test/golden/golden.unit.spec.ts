/**
 * The decider's golden corpus (issue 19): the same 10,000 random command sequences must produce byte-identical
 * events, replies and refusals. `UPDATE_GOLDEN=1 npx jest test/golden` rewrites corpus.json.gz: do that only in a
 * commit that changes behaviour on purpose, with its own test (a refactoring never updates the corpus).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import fcPackage from 'fast-check/package.json';
import { ERROR_HTTP_STATUS, ROLES } from '../../src';
import { CORPUS_SEED, CORPUS_SIZE, type StepRecord, hashOf, runSequence, sequences } from './corpus';

const FILE = join(__dirname, 'corpus.json.gz');
/** Sequences kept whole in the file, to read what the corpus holds and to diff a failing one by hand. */
const SAMPLES = [0, 1, 2, 3];

interface Golden {
  readonly seed: number;
  readonly size: number;
  readonly fastCheck: string;
  /** SHA-256 (hex) of each sequence's records, in order. */
  readonly hashes: readonly string[];
  readonly samples: Readonly<Record<string, readonly StepRecord[]>>;
}

function record(): { golden: Golden; coverage: Map<string, Set<string>> } {
  const coverage = new Map<string, Set<string>>();
  const seen = (kind: string, value: string) => {
    let set = coverage.get(kind);
    if (!set) coverage.set(kind, (set = new Set()));
    set.add(value);
  };
  const samples: Record<string, readonly StepRecord[]> = {};
  const hashes = sequences().map((sequence, index) => {
    const records = runSequence(sequence, index, (command, outcome) => {
      const c = command as { type?: unknown; meta?: { actor?: { id?: unknown; role?: unknown } } } | null;
      const type = typeof c?.type === 'string' ? c.type : '?';
      seen('outcome', outcome);
      seen('type', `${type} ${outcome === 'ok' ? 'ok' : 'refused'}`);
      seen('role', String(c?.meta?.actor?.role));
      seen('actor', String(c?.meta?.actor?.id));
    });
    if (SAMPLES.includes(index)) samples[String(index)] = records;
    return hashOf(records);
  });
  return {
    golden: { seed: CORPUS_SEED, size: CORPUS_SIZE, fastCheck: fcPackage.version, hashes, samples },
    coverage,
  };
}

describe('golden corpus of the decider', () => {
  const { golden, coverage } = record();

  it('covers every command type (taken and refused), every refusal code, every role and the system actors', () => {
    const types = coverage.get('type') ?? new Set();
    for (const type of Object.keys(COMMAND_TYPES)) {
      expect(types).toContain(`${type} ok`);
      expect(types).toContain(`${type} refused`);
    }
    expect([...(coverage.get('outcome') ?? [])].sort()).toEqual(
      ['ok', ...Object.keys(ERROR_HTTP_STATUS)].sort(),
    );
    for (const role of ROLES) expect(coverage.get('role')).toContain(role);
    expect(coverage.get('actor')).toContain('online-croupier');
    expect(coverage.get('actor')).toContain('online-cashier:p1');
  });

  it('produces byte-identical events, replies and refusals', () => {
    if (process.env['UPDATE_GOLDEN'] === '1') {
      writeFileSync(FILE, gzipSync(JSON.stringify(golden), { level: 9 }));
    }
    const stored = JSON.parse(gunzipSync(readFileSync(FILE)).toString('utf8')) as Golden;
    expect({ seed: golden.seed, size: golden.size, fastCheck: golden.fastCheck }).toEqual({
      seed: stored.seed,
      size: stored.size,
      fastCheck: stored.fastCheck,
    });
    for (const index of SAMPLES) expect(golden.samples[String(index)]).toEqual(stored.samples[String(index)]);
    const differing = golden.hashes.flatMap((hash, i) => (hash === stored.hashes[i] ? [] : [i]));
    expect(differing.slice(0, 20)).toEqual([]);
    expect(golden.hashes).toHaveLength(stored.hashes.length);
  });
});

const COMMAND_TYPES: Record<import('../../src').TableCommandType, true> = {
  OpenTable: true,
  CloseTable: true,
  BuyIn: true,
  CashOut: true,
  StartShoe: true,
  OpenBetting: true,
  PlaceBet: true,
  ClearBets: true,
  Rebet: true,
  CloseBetting: true,
  Deal: true,
  DealCard: true,
  ConfirmResult: true,
  CorrectCard: true,
  VoidRound: true,
  EndShoe: true,
};
