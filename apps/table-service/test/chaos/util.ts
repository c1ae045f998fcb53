/** Small helpers of the chaos scenario: a seeded PRNG, sleeping, JSON equality. */
import { isDeepStrictEqual } from 'node:util';

/** A seeded PRNG (mulberry32): the scenario's choices repeat for a seed, whatever the timing. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** An independent stream for one actor, derived from this one's seed and a label. */
  static derive(seed: number, label: string): Rng {
    let h = seed >>> 0;
    for (const c of label) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    return new Rng(h);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Deep equality of two JSON values (as parsed from the wire or the store). */
export function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

/** Does `actual` carry every field of `expected` with the same value (extra fields allowed)? */
export function covers(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected))
    return sameJson(actual, expected);
  if (actual === null || typeof actual !== 'object') return false;
  const a = actual as Record<string, unknown>;
  return Object.entries(expected as Record<string, unknown>).every(([k, v]) => sameJson(a[k], v));
}

/** Where two JSON values differ: up to `max` paths with both values (for violation messages). */
export function jsonDiff(actual: unknown, expected: unknown, max = 4): string {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    if (out.length >= max || sameJson(a, b)) return;
    const objects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object';
    if (!objects || Array.isArray(a) !== Array.isArray(b)) {
      out.push(
        `${path || '.'}: ${JSON.stringify(a)?.slice(0, 200)} instead of ${JSON.stringify(b)?.slice(0, 200)}`,
      );
      return;
    }
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) walk(x[k], y[k], `${path}.${k}`);
  };
  walk(JSON.parse(JSON.stringify(actual ?? null)), JSON.parse(JSON.stringify(expected ?? null)), '');
  return out.join('; ');
}

/**
 * Two JSON values with every sealed secret (`sealed:v1:...`: a seed encrypted at rest, with a fresh nonce each time
 * it is sealed) and the string in its place on the other side replaced by the word `sealed`: two seals of one seed
 * differ, a snapshot may keep sealed what the fold has in the clear, and the checks have no business opening them
 * (the shoe's commitment, compared in the clear, says which seed it is).
 */
export function maskSealed(a: unknown, b: unknown): [unknown, unknown] {
  const sealed = (v: unknown) => typeof v === 'string' && /^sealed:v\d+:/.test(v);
  const walk = (x: unknown, y: unknown): [unknown, unknown] => {
    if (typeof x === 'string' && typeof y === 'string' && (sealed(x) || sealed(y)))
      return ['sealed', 'sealed'];
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return [x, y];
    if (Array.isArray(x) !== Array.isArray(y)) return [x, y];
    const [p, q] = Array.isArray(x) ? [[...x], [...(y as unknown[])]] : [{ ...x }, { ...y }];
    const xs = p as Record<string, unknown>;
    const ys = q as Record<string, unknown>;
    for (const k of Object.keys(xs)) if (k in ys) [xs[k], ys[k]] = walk(xs[k], ys[k]);
    return [p, q];
  };
  return walk(JSON.parse(JSON.stringify(a ?? null)), JSON.parse(JSON.stringify(b ?? null)));
}
