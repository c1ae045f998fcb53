/**
 * The `commitment` and `shuffle` checks of an rng shoe once its seed is revealed: sha256(seed) is the commitment
 * published at ShoeStarted, and `shuffleShoe(decks, seed)` has the recorded cards at the recorded shoe positions.
 */
import { commitment as commitmentOf, seedFromHex, shuffleShoe } from '@coup/engine';
import type { RecordedEvent } from '@coup/event-store';
import type { ShoeStartedData } from '@coup/table';
import type { ShoeRecordView } from '../read-models/hand-history/wire';
import { dealtCards } from './coup-checks';
import { ref } from './span';
import type { Check, CheckStatus } from './types';

/** What the checks read of a ShoeStarted event. */
type ShoeStarted = Pick<ShoeStartedData, 'commitment' | 'decks' | 'burnCard'>;

interface Revealed {
  readonly seed: Uint8Array;
  readonly started: RecordedEvent;
}

/** The same answer for both checks. */
function both(status: CheckStatus, detail: string, event?: RecordedEvent): [Check, Check] {
  const at = event ? { event: ref(event) } : {};
  return [
    { name: 'commitment', status, detail, ...at },
    { name: 'shuffle', status, detail, ...at },
  ];
}

/** The revealed seed and the shoe's ShoeStarted, or why neither check can run yet (or at all). */
function revealed(
  shoe: ShoeRecordView | null,
  started: RecordedEvent | null,
  ended: RecordedEvent | null,
): Revealed | [Check, Check] {
  if (shoe === null) return both('fail', 'the shoe of this hand is not in the index');
  if (shoe.dealing !== 'rng') return both('skipped', 'a live shoe: shuffled by hand, no seed');
  if (started === null || started.type !== 'ShoeStarted') {
    return both(
      'fail',
      `ShoeStarted of shoe ${shoe.shoeNo} is not at the revision the index recorded (${shoe.startedRevision})`,
    );
  }
  const seed =
    ended === null || ended.type !== 'ShoeEnded' ? null : (ended.data as { seed: string | null }).seed;
  if (seed === null) return both('pending', `the seed of shoe ${shoe.shoeNo} is revealed when the shoe ends`);
  try {
    return { seed: seedFromHex(seed), started };
  } catch {
    return both('fail', `the revealed seed is not 64 hex characters`, ended ?? undefined);
  }
}

function checkCommitment(bytes: Uint8Array, s: ShoeStarted, started: RecordedEvent): Check {
  return commitmentOf(bytes) === s.commitment
    ? {
        name: 'commitment',
        status: 'pass',
        detail: `sha256(seed) = ${s.commitment}, as published before the first bet`,
      }
    : {
        name: 'commitment',
        status: 'fail',
        detail: `sha256(revealed seed) = ${commitmentOf(bytes)}, but ShoeStarted published ${s.commitment}`,
        event: ref(started),
      };
}

function checkShuffle(
  bytes: Uint8Array,
  s: ShoeStarted,
  started: RecordedEvent,
  events: readonly RecordedEvent[],
): Check {
  const order = shuffleShoe(s.decks, bytes);
  if (s.burnCard !== null && order[0] !== s.burnCard) {
    return {
      name: 'shuffle',
      status: 'fail',
      detail: `the seed's shoe starts with ${order[0]}; the recorded turned card is ${s.burnCard}`,
      event: ref(started),
    };
  }
  const cards = dealtCards(events);
  for (const c of cards) {
    if (order[c.shoePosition] !== c.card) {
      return {
        name: 'shuffle',
        status: 'fail',
        detail: `shoe position ${c.shoePosition} holds ${order[c.shoePosition]} in the seed's shuffle; ${c.card} was recorded`,
        event: ref(c.e),
      };
    }
  }
  return {
    name: 'shuffle',
    status: 'pass',
    detail: `shuffleShoe(${s.decks}, seed) has the ${cards.length} recorded cards at their shoe positions`,
  };
}

export function checkSeed(
  shoe: ShoeRecordView | null,
  started: RecordedEvent | null,
  ended: RecordedEvent | null,
  events: readonly RecordedEvent[],
): [Check, Check] {
  const r = revealed(shoe, started, ended);
  if (Array.isArray(r)) return r;
  const s = r.started.data as unknown as ShoeStarted;
  return [checkCommitment(r.seed, s, r.started), checkShuffle(r.seed, s, r.started, events)];
}
