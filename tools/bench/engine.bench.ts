// The engine benchmark: `npm run bench:engine` (node tools/run-ts.mjs tools/bench/engine.bench.ts).
// - simulate(): 8 decks, burn and cut card 16, five runs of 130,000 shoes (about 10.5 million coups each), with
//   coups per second and z-scores against exactOdds, per run and pooled;
// - the reference path in the same process, side by side, on the same kind of shoes: HMAC shuffleShoe,
//   startShoeProgress/advanceShoe and resolveCoup one coup at a time, and the ratio;
// - exactOdds({ decks: 8 }): median time over 31 runs after 10 warm-up runs;
// - exactBetOddsForShoe: the remaining-shoe edge monitor's computation, every bet a mode offers for the shoe left
//   after each coup of shuffled 8-deck shoes (aim: at most 20 ms), and its ratio to exactOdds in the same run;
// - shuffleShoe(8, seed): the HMAC-SHA256 shuffle a table runs per shoe (or per coup on every-coup tables).
import {
  DECK,
  GAME_MODES,
  advanceShoe,
  exactBetOddsForShoe,
  exactOdds,
  resolveCoup,
  shuffleShoe,
  simulate,
  simulationZScores,
  startShoeProgress,
  type SimulationResult,
} from '@coup/engine';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
};
const millions = (x: number): string => (x / 1e6).toFixed(1);
const fmtZ = (z: ReturnType<typeof simulationZScores>): string =>
  Object.entries(z)
    .map(([k, v]) => `${k} ${v >= 0 ? '+' : ''}${v.toFixed(2)}`)
    .join(', ');

console.log(`# engine benchmark, ${new Date().toISOString()}`);
console.log(
  `node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

// exactOdds
const odds8 = exactOdds({ decks: 8 });
for (let i = 0; i < 10; i++) exactOdds({ decks: 8 });
const oddsTimes: number[] = [];
for (let i = 0; i < 31; i++) {
  const t = performance.now();
  exactOdds({ decks: 8 });
  oddsTimes.push(performance.now() - t);
}
console.log(
  `\nexactOdds({ decks: 8 }): median ${median(oddsTimes).toFixed(3)} ms over 31 runs (min ${Math.min(...oddsTimes).toFixed(3)}, max ${Math.max(...oddsTimes).toFixed(3)}) after 10 warm-up runs`,
);

// exactBetOddsForShoe: every bet of each mode, for the remaining shoe after each coup of 20 shuffled 8-deck shoes
// (the burn and the cut card as a table deals them), one composition at a time as the monitor computes them.
{
  const compositions: number[][] = [];
  const index = new Map(DECK.map((card, i) => [card, i]));
  for (let s = 0; s < 20; s++) {
    const shoe = shuffleShoe(8, new Uint8Array(32).fill(s + 1));
    const counts = DECK.map(() => 8);
    const take = (from: number, to: number): void => {
      for (const card of shoe.slice(from, to)) {
        const i = index.get(card) ?? -1;
        counts[i] = (counts[i] ?? 0) - 1;
      }
    };
    const [turned] = shoe;
    if (turned === undefined) throw new Error('empty shoe');
    let p = startShoeProgress(shoe.length, turned);
    take(0, p.position); // the turned card and the burn
    while (!p.ended) {
      compositions.push([...counts]);
      const r = resolveCoup(shoe.slice(p.position, p.position + 6));
      take(p.position, p.position + r.cardsUsed);
      p = advanceShoe(p, r.cardsUsed);
    }
  }
  const [first] = compositions;
  if (first === undefined) throw new Error('no compositions');
  const t0 = performance.now();
  for (const game of GAME_MODES) exactBetOddsForShoe(first, { game });
  const firstMs = performance.now() - t0;
  for (const counts of compositions.slice(0, 30)) exactBetOddsForShoe(counts, { game: 'ez' }); // warm-up
  console.log(
    `\nexactBetOddsForShoe (every bet of the mode, 8 decks, ${compositions.length} remaining-shoe compositions: after each coup of 20 shoes); first call of each mode (its payout plans built and checked) ${firstMs.toFixed(1)} ms in all:`,
  );
  // exactOdds({ decks: 8 }) timed between the compositions, so that the ratio sees the same load.
  for (const game of GAME_MODES) {
    const fullShoeTimes: number[] = [];
    let cpuMicros = 0;
    const times = compositions.map((counts) => {
      const t = performance.now();
      const cpu = process.cpuUsage();
      exactBetOddsForShoe(counts, { game });
      const used = process.cpuUsage(cpu);
      const ms = performance.now() - t;
      cpuMicros += used.user + used.system;
      const t1 = performance.now();
      exactOdds({ decks: 8 });
      fullShoeTimes.push(performance.now() - t1);
      return ms;
    });
    const sorted = [...times].sort((a, b) => a - b);
    const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? NaN;
    const spots = exactBetOddsForShoe(first, { game }).spots.length;
    console.log(
      `  ${game} (${spots} bets): median ${median(times).toFixed(3)} ms, p99 ${p99.toFixed(3)}, max ${(sorted.at(-1) ?? NaN).toFixed(3)} (aim 20 ms); CPU ${(cpuMicros / 1000 / compositions.length).toFixed(3)} ms per composition; ${(median(times) / median(fullShoeTimes)).toFixed(2)}x the median exactOdds({ decks: 8 }) timed between them (${median(fullShoeTimes).toFixed(3)} ms)`,
    );
  }
}

// simulate: the fast path
const SHOES = 130_000;
simulate({ decks: 8, shoes: 3000, seed: 'warm-up' });
const runs: { result: SimulationResult; seconds: number; cpuSeconds: number }[] = [];
console.log(
  `\nsimulate({ decks: 8, shoes: ${SHOES}, burn and cut card 16 }), 5 runs (wall clock; CPU time of this process):`,
);
for (let k = 1; k <= 5; k++) {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const result = simulate({ decks: 8, shoes: SHOES, seed: `bench-${k}` });
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - t) / 1000;
  const cpuSeconds = (used.user + used.system) / 1e6;
  runs.push({ result, seconds, cpuSeconds });
  console.log(
    `  run ${k}: ${result.coups.toLocaleString('en-US')} coups in ${seconds.toFixed(3)} s = ${millions(result.coups / seconds)} M coups/s (CPU ${cpuSeconds.toFixed(3)} s = ${millions(result.coups / cpuSeconds)} M/s); z: ${fmtZ(simulationZScores(result, odds8))}`,
  );
}
const cpuRates = runs.map((r) => r.result.coups / r.cpuSeconds);
const rates = runs.map((r) => r.result.coups / r.seconds);
const pooled = runs.reduce(
  (a, { result: r }) => ({
    ...a,
    shoes: a.shoes + r.shoes,
    coups: a.coups + r.coups,
    outcomes: {
      player: a.outcomes.player + r.outcomes.player,
      banker: a.outcomes.banker + r.outcomes.banker,
      tie: a.outcomes.tie + r.outcomes.tie,
    },
    naturals: a.naturals + r.naturals,
    pairs: { player: a.pairs.player + r.pairs.player, banker: a.pairs.banker + r.pairs.banker },
  }),
  {
    decks: 8,
    shoes: 0,
    coups: 0,
    outcomes: { player: 0, banker: 0, tie: 0 },
    naturals: 0,
    pairs: { player: 0, banker: 0 },
    handsPerShoe: { min: 0, max: 0, mean: 0 },
  } as SimulationResult,
);
console.log(
  `  median ${millions(median(rates))} M coups/s wall clock (min ${millions(Math.min(...rates))}, max ${millions(Math.max(...rates))}); by CPU time median ${millions(median(cpuRates))} M/s`,
);
console.log(
  `  pooled ${pooled.coups.toLocaleString('en-US')} coups, z: ${fmtZ(simulationZScores(pooled, odds8))}`,
);
const f = (x: number, n: number): string => (x / n).toFixed(6);
console.log(
  `  pooled frequencies: banker ${f(pooled.outcomes.banker, pooled.coups)} (exact ${odds8.probabilities.banker.toFixed(6)}), player ${f(pooled.outcomes.player, pooled.coups)} (${odds8.probabilities.player.toFixed(6)}), tie ${f(pooled.outcomes.tie, pooled.coups)} (${odds8.probabilities.tie.toFixed(6)})`,
);

// The reference path, side by side: the public step-by-step API on HMAC-shuffled shoes.
const REF_SHOES = 400;
const seed = new Uint8Array(32);
const seedView = new DataView(seed.buffer);
function referenceShoes(n: number, from: number): { coups: number; shuffleMs: number; playMs: number } {
  let coups = 0;
  let shuffleMs = 0;
  let playMs = 0;
  for (let s = 0; s < n; s++) {
    seedView.setUint32(0, from + s);
    const t0 = performance.now();
    const shoe = shuffleShoe(8, seed);
    const t1 = performance.now();
    const [turned] = shoe;
    if (turned === undefined) throw new Error('empty shoe');
    let p = startShoeProgress(shoe.length, turned);
    while (!p.ended) {
      const r = resolveCoup(shoe.slice(p.position, p.position + 6));
      p = advanceShoe(p, r.cardsUsed);
      coups++;
    }
    playMs += performance.now() - t1;
    shuffleMs += t1 - t0;
  }
  return { coups, shuffleMs, playMs };
}
referenceShoes(50, 1e6); // warm-up
const ref = referenceShoes(REF_SHOES, 0);
const refRate = ref.coups / ((ref.shuffleMs + ref.playMs) / 1000);
console.log(
  `\nreference path (shuffleShoe + startShoeProgress/advanceShoe + resolveCoup), ${REF_SHOES} shoes, ${ref.coups.toLocaleString('en-US')} coups: ${(refRate / 1e3).toFixed(1)} k coups/s`,
);
console.log(
  `  of which shuffleShoe (HMAC-SHA256) ${(ref.shuffleMs / REF_SHOES).toFixed(3)} ms per 8-deck shoe, play ${((ref.playMs / ref.coups) * 1000).toFixed(2)} us per coup`,
);
console.log(`  ratio fast/reference: ${(median(rates) / refRate).toFixed(0)}x`);
