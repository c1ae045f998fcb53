/** Verification of one hand: reads its span and (rng) its shoe's two events, and runs every named check. */
import type { EventStore, RecordedEvent } from '@coup/event-store';
import { type ChainLink, checkChain, checkIndex, rawLink, recordedLink } from './chain';
import { checkCoup, checkSettlements } from './coup-checks';
import { checkSeed } from './seed-check';
import { indexed, readSpan, streamOf } from './span';
import type { Check, HandSource, HandVerification } from './types';

async function tryRead(
  store: EventStore,
  stream: string,
  from: number,
  count: number,
): Promise<{ events: RecordedEvent[] | null; error: string | null }> {
  try {
    return { events: await readSpan(store, stream, from, count), error: null };
  } catch (error) {
    return { events: null, error: (error as Error).message };
  }
}

/** Verifies one hand: reads its span and (rng) its shoe's two events, and runs every check. */
export async function verifyHand(
  src: HandSource,
  tableId: string,
  roundNo: number,
): Promise<HandVerification> {
  const { hand, start: before } = await indexed(src, tableId, roundNo);
  const shoe = await src.readModels.shoe(tableId, hand.shoeNo);
  const stream = streamOf(tableId);
  const { firstRevision, eventCount } = hand.span;
  const read = await tryRead(src.store, stream, firstRevision, eventCount);
  const raw = src.raw ? await src.raw(stream, firstRevision, eventCount) : null;
  const links = raw ? raw.map((r) => rawLink(stream, r)) : (read.events ?? []).map(recordedLink);
  const rng = shoe?.dealing === 'rng';
  const one = async (revision: number | null) => {
    if (revision === null) return { e: null, link: null };
    const e = (await tryRead(src.store, stream, revision, 1)).events?.[0] ?? null;
    const r = src.raw ? (await src.raw(stream, revision, 1))[0] : undefined;
    return { e, link: r ? rawLink(stream, r) : e ? recordedLink(e) : null };
  };
  const started = rng ? await one(shoe.startedRevision) : { e: null, link: null };
  const ended = rng ? await one(shoe.endedRevision) : { e: null, link: null };
  const shoeLinks: { link: ChainLink; indexedHash: string }[] = [];
  if (started.link && shoe) shoeLinks.push({ link: started.link, indexedHash: shoe.startedHash });
  if (ended.link && shoe?.endedHash) shoeLinks.push({ link: ended.link, indexedHash: shoe.endedHash });
  const checks: Check[] = [
    checkIndex(hand, links, read.events),
    checkChain(hand, links, shoeLinks, raw !== null),
  ];
  if (read.events === null) {
    const detail = `the hand's events cannot be read: ${read.error}`;
    checks.push({ name: 'coup', status: 'fail', detail }, { name: 'settlements', status: 'fail', detail });
  } else if (checks[0]?.status === 'pass') {
    const events = read.events;
    checks.push(checkCoup(hand, events), checkSettlements(hand, before, events));
    checks.push(...checkSeed(shoe, started.e, ended.e, events));
  }
  return { tableId, roundNo, shoeNo: hand.shoeNo, ok: checks.every((c) => c.status !== 'fail'), checks };
}
