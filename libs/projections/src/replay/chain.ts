/**
 * The `index` and `chain` checks: the span's events are the indexed hand's, and every event's hash is recomputed
 * (from the stored bytes when a raw reader is given, else from the contents) with each prevHash linking up.
 */
import { type JsonValue, type RecordedEvent, canonicalJson, computeEventHash } from '@coup/event-store';
import type { HandRecord } from '../read-models/hand-history/wire';
import type { RawEvent } from '../runner/sqlite-store';
import { ref } from './span';
import type { Check } from './types';

function recompute(e: RecordedEvent): string {
  return computeEventHash({
    streamName: e.streamName,
    streamRevision: e.streamRevision,
    type: e.type,
    data: e.data,
    metadata: e.metadata as unknown as JsonValue,
    prevHash: e.prevHash,
  });
}

/** An event of the chain as checked: where it is, its links, and whether its contents match its hash. */
export interface ChainLink {
  readonly revision: number;
  readonly position: number;
  readonly type: string;
  readonly prevHash: string;
  readonly hash: string;
  /** Why the stored contents do not match the hash, or null when they do. */
  readonly problem: string | null;
}

const linkRef = (l: ChainLink) => ({ revision: l.revision, position: l.position, type: l.type });
const describeLink = (l: ChainLink) => `event ${l.type} at revision ${l.revision} (position ${l.position})`;

/** A link from the port's event: the hash recomputed from its contents. */
export function recordedLink(e: RecordedEvent): ChainLink {
  return {
    ...ref(e),
    prevHash: e.prevHash,
    hash: e.hash,
    problem:
      recompute(e) === e.hash ? null : 'its contents do not match its hash (the stored event was changed)',
  };
}

/** A link from the stored bytes: the text must be the canonical JSON that was hashed, and hash to the stored hash. */
export function rawLink(stream: string, r: RawEvent): ChainLink {
  const base = {
    revision: Number(r.revision),
    position: Number(r.position),
    type: r.type,
    prevHash: r.prevHash,
    hash: r.hash,
  };
  let data: JsonValue;
  let metadata: JsonValue;
  try {
    data = JSON.parse(r.dataJson) as JsonValue;
    metadata = JSON.parse(r.metadataJson) as JsonValue;
  } catch {
    return { ...base, problem: 'its stored data is not JSON (the stored event was changed)' };
  }
  if (canonicalJson(data) !== r.dataJson || canonicalJson(metadata) !== r.metadataJson) {
    return {
      ...base,
      problem: 'its stored bytes are not the text that was hashed (the stored event was changed)',
    };
  }
  const hash = computeEventHash({
    streamName: stream,
    streamRevision: BigInt(r.revision),
    type: r.type,
    data,
    metadata,
    prevHash: r.prevHash,
  });
  return {
    ...base,
    problem: hash === r.hash ? null : 'its contents do not match its hash (the stored event was changed)',
  };
}

export function checkIndex(
  hand: HandRecord,
  links: readonly ChainLink[],
  events: readonly RecordedEvent[] | null,
): Check {
  const { span } = hand;
  const fail = (detail: string, l?: ChainLink): Check => ({
    name: 'index',
    status: 'fail',
    detail,
    ...(l ? { event: linkRef(l) } : {}),
  });
  if (links.length !== span.eventCount) {
    return fail(
      `the index spans ${span.eventCount} events (revisions ${span.firstRevision}-${span.lastRevision}); the store returned ${links.length}: events are missing`,
    );
  }
  const first = links[0];
  const last = links[links.length - 1];
  if (first === undefined || last === undefined) return fail('the store returned no events for the span');
  if (first.revision !== span.firstRevision || last.revision !== span.lastRevision) {
    return fail(
      `the store returned revisions ${first.revision}-${last.revision} for the indexed ${span.firstRevision}-${span.lastRevision}`,
      first,
    );
  }
  const roundOf = (i: number) => (events?.[i]?.data as { roundNo?: unknown } | undefined)?.roundNo;
  if (first.type !== 'BettingOpened' || (events !== null && roundOf(0) !== hand.roundNo)) {
    return fail(
      `the first event of the span is ${first.type} (round ${String(roundOf(0))}), not BettingOpened of round ${hand.roundNo}`,
      first,
    );
  }
  if (first.position !== span.firstPosition || last.position !== span.lastPosition) {
    return fail(
      `the span's positions ${first.position}-${last.position} differ from the index's ${span.firstPosition}-${span.lastPosition}`,
      first,
    );
  }
  if (hand.status === 'resolved' || hand.status === 'voided') {
    // the span ends at the hand's last event: its coup or void, or the last correction or void after it settled
    const amended = hand.amendments.at(-1);
    const ending =
      amended !== undefined
        ? amended.kind === 'correction'
          ? 'SettledCoupCorrected'
          : 'SettledCoupVoided'
        : hand.status === 'resolved'
          ? 'CoupResolved'
          : 'RoundVoided';
    if (last.type !== ending || (events !== null && roundOf(links.length - 1) !== hand.roundNo)) {
      return fail(`the last event of the span is ${last.type}, not ${ending} of round ${hand.roundNo}`, last);
    }
  }
  return {
    name: 'index',
    status: 'pass',
    detail: `${links.length} events, revisions ${span.firstRevision}-${span.lastRevision}, positions ${span.firstPosition}-${span.lastPosition}`,
  };
}

export function checkChain(
  hand: HandRecord,
  links: readonly ChainLink[],
  shoeLinks: readonly { link: ChainLink; indexedHash: string }[],
  bytes: boolean,
): Check {
  const fail = (detail: string, l: ChainLink): Check => ({
    name: 'chain',
    status: 'fail',
    detail,
    event: linkRef(l),
  });
  let prev: ChainLink | null = null;
  for (const l of links) {
    if (l.problem) return fail(`${describeLink(l)}: ${l.problem}`, l);
    if (prev === null && l.prevHash !== hand.span.firstPrevHash) {
      return fail(`${describeLink(l)}: its prevHash is not the link the index recorded into this hand`, l);
    }
    if (prev !== null && l.prevHash !== prev.hash)
      return fail(`${describeLink(l)}: its prevHash does not match the hash of the event before it`, l);
    prev = l;
  }
  if (prev !== null && prev.hash !== hand.span.lastHash) {
    return fail(
      `${describeLink(prev)}: its hash differs from the hand's head hash in the index (the hand was rewritten)`,
      prev,
    );
  }
  for (const { link, indexedHash } of shoeLinks) {
    if (link.problem) return fail(`${describeLink(link)}: ${link.problem}`, link);
    if (link.hash !== indexedHash)
      return fail(`${describeLink(link)}: its hash differs from the one the shoe index recorded`, link);
  }
  const extra = shoeLinks.length > 0 ? ` and ${shoeLinks.length} shoe event(s)` : '';
  return {
    name: 'chain',
    status: 'pass',
    detail: `${links.length} hand events${extra}: hashes recomputed ${bytes ? 'from the stored bytes' : 'from the contents'}, links intact`,
  };
}
