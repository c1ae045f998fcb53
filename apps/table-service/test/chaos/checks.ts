/**
 * The invariants the chaos scenario checks at the end, from the raw events of the store (read-only) and what the
 * clients were told. Each violation is recorded in the journal under the invariant's name.
 */
import { ALL_SPOTS, type CoupResult, type SideSpot, type Spot, isSideSpot, settleBet } from '@coup/engine';
import type { RecordedEvent } from '@coup/event-store';
import {
  evolve,
  initialState,
  payoutRulesOf,
  replyFor,
  tableView,
  type Actor,
  type Returned,
  type Settlement,
  type TableCommand,
  type TableEvent,
  type TableRules,
  type TableState,
} from '@coup/table';
import type { Journal, KeyRecord } from './journal';
import { covers, jsonDiff, sameJson } from './util';

/** A player's stakes per spot as the events record them: the main spots always, a side bet once staked. */
type Spots = { player: number; banker: number; tie: number } & { [S in SideSpot]?: number };
const noBets = (): Spots => ({ player: 0, banker: 0, tie: 0 });
const total = (s: Spots) => ALL_SPOTS.reduce((sum, spot) => sum + (s[spot] ?? 0), 0);
const add = (s: Spots, spot: Spot, amount: number) => (s[spot] = (s[spot] ?? 0) + amount);

/** A player's money at the table, folded from the events alone (independently of the decider). */
export interface Account {
  chips: number;
  buyIns: number;
  boughtIn: number;
  cashOuts: number;
  cashedOut: number;
  bets: number;
  /** Every stake placed, as `bets` counts every bet (what clears and voids gave back is in cleared, voidedReturned). */
  staked: number;
  cleared: number;
  paid: number;
  voidedReturned: number;
}

/** A table's coup counters, folded from the events, as the stats read model reports them. */
export interface TableTotals {
  coups: number;
  voids: number;
  /** Stakes settled, and paid back (stakes included), per spot: side bets too. */
  handle: Spots;
  paidBySpot: Spots;
  /** Paid back on every spot. */
  paid: number;
  commission: number;
}

const newAccount = (): Account => ({
  chips: 0,
  buyIns: 0,
  boughtIn: 0,
  cashOuts: 0,
  cashedOut: 0,
  bets: 0,
  staked: 0,
  cleared: 0,
  paid: 0,
  voidedReturned: 0,
});

/**
 * Every player's money exact in the events: each event's recorded chips equal buy-ins − cash-outs − stakes +
 * returns so far; a clear returns exactly the stakes on the layout (side bets included), a coup settles exactly
 * them, each as the engine pays it on the recorded cards under the table's mode and paytables, a void returns
 * exactly them, a cash-out pays exactly the chips; a bet lands only in the open round.
 */
export function foldMoney(
  events: readonly RecordedEvent[],
  j: Journal,
): { accounts: Map<string, Account>; totals: TableTotals } {
  const accounts = new Map<string, Account>();
  const totals: TableTotals = {
    coups: 0,
    voids: 0,
    handle: noBets(),
    paidBySpot: noBets(),
    paid: 0,
    commission: 0,
  };
  const account = (p: string) => {
    let a = accounts.get(p);
    if (!a) accounts.set(p, (a = newAccount()));
    return a;
  };
  let layout = new Map<string, Spots>();
  let rules: TableRules | null = null;
  let bettingRound: number | null = null;
  const bad = (e: RecordedEvent, what: string) =>
    j.violation('money-exact-in-events', `revision ${e.streamRevision} ${e.type}: ${what}`);
  /** The round's stakes leave the layout: what `e` paid out per player must be exactly what each had on it. */
  const endRound = <T>(
    e: RecordedEvent,
    paidOut: Map<string, T>,
    perPlayer: (s: Spots) => T,
    verb: string,
  ) => {
    const stakes = Object.fromEntries(
      [...layout].filter(([, s]) => total(s) > 0).map(([p, s]) => [p, perPlayer(s)]),
    );
    if (!sameJson(stakes, Object.fromEntries(paidOut)))
      bad(e, `${verb} ${JSON.stringify([...paidOut])}, the layout held ${JSON.stringify(stakes)}`);
    layout = new Map();
    bettingRound = null;
  };
  /** The coup just settled (its settlement as last recorded), which a supervisor may still correct or void. */
  let last: { roundNo: number; settlements: readonly Settlement[]; stakes: Map<string, Spots> } | null = null;
  /** Each settlement as the engine pays it on the coup's cards; chips and totals move by what it paid. */
  const settle = (e: RecordedEvent, d: CoupResult & { settlements: readonly Settlement[] }) => {
    const settled = new Map<string, Spots>();
    for (const s of d.settlements) {
      // Each stake settled as the engine pays it on the recorded cards, under the table's rules and paytable.
      const want = rules && settleBet(s.spot, s.amount, d, payoutRulesOf(rules));
      const paytable = isSideSpot(s.spot) ? rules?.sideBets?.[s.spot]?.paytable : undefined;
      const got = { result: s.result, paid: s.paid, commission: s.commission, paytable: s.paytable };
      if (!sameJson(got, { ...want, paytable }))
        bad(
          e,
          `${s.playerId} on ${s.spot}: settled ${JSON.stringify(got)}, the engine pays ${JSON.stringify(want)}`,
        );
      const spots = settled.get(s.playerId) ?? noBets();
      add(spots, s.spot, s.amount);
      settled.set(s.playerId, spots);
      move(s, 1);
    }
    return settled;
  };
  /** A settlement counted (1) or taken back (-1) in the player's chips and the table's totals. */
  const move = (s: Settlement, sign: 1 | -1) => {
    const a = account(s.playerId);
    a.chips += sign * s.paid;
    a.paid += sign * s.paid;
    add(totals.handle, s.spot, sign * s.amount);
    add(totals.paidBySpot, s.spot, sign * s.paid);
    totals.paid += sign * s.paid;
    totals.commission += sign * s.commission;
  };
  /** A settled coup's settlement reversed: it must be the one last recorded for that coup. Its stakes, or null. */
  const reverse = (e: RecordedEvent, roundNo: number, reversed: readonly Settlement[]) => {
    if (last === null || last.roundNo !== roundNo || !sameJson(reversed, last.settlements)) {
      bad(e, `reversed ${JSON.stringify(reversed)}, the coup just settled is ${JSON.stringify(last)}`);
      return null;
    }
    for (const s of reversed) move(s, -1);
    return last.stakes;
  };
  /** Stakes returned by a void: into each player's chips. Per player, the total. */
  const returnStakes = (list: readonly Returned[]) => {
    const returned = new Map<string, number>();
    for (const r of list) {
      returned.set(r.playerId, (returned.get(r.playerId) ?? 0) + r.amount);
      const a = account(r.playerId);
      a.chips += r.amount;
      a.voidedReturned += r.amount;
    }
    return returned;
  };
  for (const e of events) {
    const ev = { type: e.type, data: e.data } as TableEvent;
    switch (ev.type) {
      case 'TableOpened':
        rules = ev.data.rules;
        break;
      case 'PlayerBoughtIn': {
        const d = ev.data;
        const a = account(d.playerId);
        a.chips += d.amount;
        a.buyIns++;
        a.boughtIn += d.amount;
        if (d.chips !== a.chips) bad(e, `${d.playerId} has ${a.chips}, the event says ${d.chips}`);
        break;
      }
      case 'BettingOpened':
        last = null;
        layout = new Map();
        bettingRound = ev.data.roundNo;
        break;
      case 'BetPlaced': {
        const d = ev.data;
        const a = account(d.playerId);
        if (d.roundNo !== bettingRound) bad(e, `a bet on round ${d.roundNo} while ${bettingRound} is open`);
        a.chips -= d.amount;
        a.bets++;
        a.staked += d.amount;
        const spots = layout.get(d.playerId) ?? noBets();
        add(spots, d.spot, d.amount);
        layout.set(d.playerId, spots);
        if (a.chips < 0) bad(e, `${d.playerId} bets ${d.amount} with ${a.chips + d.amount} chips`);
        if (d.chips !== a.chips) bad(e, `${d.playerId} has ${a.chips}, the event says ${d.chips}`);
        if (d.spotTotal !== spots[d.spot])
          bad(e, `${d.playerId} has ${spots[d.spot]} on ${d.spot}, the event says ${d.spotTotal}`);
        break;
      }
      case 'BetsCleared': {
        const d = ev.data;
        const a = account(d.playerId);
        const staked = layout.get(d.playerId) ?? noBets();
        if (d.returned !== total(staked) || !sameJson(d.bets, staked))
          bad(e, `${d.playerId} staked ${JSON.stringify(staked)}, the clear returned ${d.returned}`);
        a.chips += d.returned;
        a.cleared += d.returned;
        layout.delete(d.playerId);
        if (d.chips !== a.chips) bad(e, `${d.playerId} has ${a.chips}, the event says ${d.chips}`);
        break;
      }
      case 'BettingClosed':
        bettingRound = null;
        break;
      case 'CoupResolved': {
        const settled = settle(e, ev.data);
        endRound(e, settled, (x) => x, 'settled');
        last = { roundNo: ev.data.roundNo, settlements: ev.data.settlements, stakes: settled };
        totals.coups++;
        break;
      }
      case 'SettledCoupCorrected': {
        const d = ev.data;
        const before = reverse(e, d.roundNo, d.reversed);
        if (before === null) break;
        const settled = settle(e, d);
        if (!sameJson(Object.fromEntries(settled), Object.fromEntries(before)))
          bad(
            e,
            `settled anew ${JSON.stringify([...settled])}, the coup held ${JSON.stringify([...before])}`,
          );
        last = { roundNo: d.roundNo, settlements: d.settlements, stakes: settled };
        j.count('coups.correctedAfterSettling');
        break;
      }
      case 'SettledCoupVoided': {
        const d = ev.data;
        const before = reverse(e, d.roundNo, d.reversed);
        if (before === null) break;
        const returned = returnStakes(d.returned);
        const stakes = new Map([...before].map(([p, x]) => [p, total(x)]));
        if (!sameJson(Object.fromEntries(returned), Object.fromEntries(stakes)))
          bad(e, `returned ${JSON.stringify([...returned])}, the coup held ${JSON.stringify([...stakes])}`);
        last = null;
        j.count('coups.voidedAfterSettling');
        totals.coups--;
        totals.voids++;
        break;
      }
      case 'RoundVoided': {
        endRound(e, returnStakes(ev.data.returned), total, 'returned');
        totals.voids++;
        break;
      }
      case 'PlayerCashedOut': {
        const d = ev.data;
        const a = account(d.playerId);
        if (d.paid + d.commissionCollected !== a.chips)
          bad(e, `${d.playerId} has ${a.chips}, the cash-out paid ${d.paid} + ${d.commissionCollected}`);
        a.cashOuts++;
        a.cashedOut += d.paid;
        a.chips -= d.paid + d.commissionCollected;
        break;
      }
      default:
        break;
    }
  }
  return { accounts, totals };
}

/** The event a command records once per decision (a rebet records one BetPlaced per spot it repeats). */
const PRIMARY: Partial<Record<KeyRecord['type'], string>> = {
  OpenTable: 'TableOpened',
  BuyIn: 'PlayerBoughtIn',
  CashOut: 'PlayerCashedOut',
  StartShoe: 'ShoeStarted',
  OpenBetting: 'BettingOpened',
  PlaceBet: 'BetPlaced',
  ClearBets: 'BetsCleared',
  Rebet: 'BetPlaced',
  CloseBetting: 'BettingClosed',
  Deal: 'CoupResolved',
  VoidRound: 'RoundVoided',
};
/** A void of the coup just settled records this instead. */
const PRIMARY_SETTLED: Partial<Record<KeyRecord['type'], string>> = { VoidRound: 'SettledCoupVoided' };

/** The fields of the primary event that must equal what the client sent. */
function sentFields(rec: KeyRecord): Record<string, unknown> {
  const body = rec.body ?? {};
  const fields: Record<string, unknown> = {};
  if (rec.player !== null) fields['playerId'] = rec.player;
  if (rec.roundNo !== null) fields['roundNo'] = rec.roundNo;
  if (rec.type === 'PlaceBet') Object.assign(fields, { spot: body['spot'], amount: body['amount'] });
  if (rec.type === 'BuyIn') fields['amount'] = body['amount'];
  if (rec.type === 'Rebet') fields['rebet'] = true;
  return fields;
}

/**
 * Every acknowledged command recorded exactly once (one decision: contiguous events, its primary event once),
 * recorded as sent, its answer the one its events give; nothing recorded that was not sent; no command both
 * refused and recorded.
 */
export function checkCommands(events: readonly RecordedEvent[], j: Journal): void {
  const byKey = new Map<string, RecordedEvent[]>();
  for (const e of events) {
    const id = (e.metadata as { commandId?: string }).commandId;
    if (typeof id !== 'string') {
      j.violation('nothing-recorded-unsent', `revision ${e.streamRevision} ${e.type} has no commandId`);
      continue;
    }
    const list = byKey.get(id);
    if (list) list.push(e);
    else byKey.set(id, [e]);
  }
  for (const [key, list] of byKey) {
    const rec = j.keys.get(key);
    if (!rec) {
      j.violation(
        'nothing-recorded-unsent',
        `revision ${list[0]!.streamRevision} ${list[0]!.type}: key ${key} was never sent`,
      );
      continue;
    }
    const first = Number(list[0]!.streamRevision);
    const contiguous = list.every((e, i) => Number(e.streamRevision) === first + i);
    const primary = list.filter((e) => e.type === PRIMARY[rec.type] || e.type === PRIMARY_SETTLED[rec.type]);
    const once =
      rec.type === 'Rebet' ? primary.length >= 1 && primary.length <= ALL_SPOTS.length : primary.length === 1;
    if (!contiguous || !once)
      j.violation(
        'recorded-exactly-once',
        `${key} (${rec.type}) recorded as ${list.map((e) => `${e.type}@${e.streamRevision}`).join(', ')}`,
      );
    const expected = sentFields(rec);
    for (const e of primary)
      if (!covers(e.data, expected))
        j.violation(
          'recorded-as-sent',
          `${key}: sent ${JSON.stringify(expected)}, recorded ${JSON.stringify(e.data)}`,
        );
    if (rec.refusals.length > 0)
      j.violation(
        'refused-but-recorded',
        `${key} (${rec.type}) recorded at ${first} but answered ${rec.refusals.map((r) => `${r.status} ${r.code} by ${r.node}`).join(', ')}`,
      );
    if (rec.ok) {
      const command = {
        type: rec.type,
        data: {},
        meta: { actor: { id: '', role: 'admin' }, at: '' },
      } as unknown as TableCommand;
      const reply = replyFor(
        command,
        list.map((e) => ({ type: e.type, data: e.data }) as TableEvent),
      );
      if (!covers(rec.ok.body, reply))
        j.violation(
          'answer-matches-record',
          `${key} (${rec.type}): answered ${JSON.stringify(rec.ok.body)}, the events give ${JSON.stringify(reply)}`,
        );
    }
  }
  for (const rec of j.keys.values())
    if (rec.ok && !byKey.has(rec.key))
      j.violation(
        'acknowledged-recorded',
        `${rec.key} (${rec.type}) answered ${rec.ok.status} but is not in the log`,
      );
}

/** Something a process or the store said the table was at a revision, to compare with a fold of the stream. */
export interface AtRevision {
  readonly revision: number;
  readonly what: string;
  /** The invariant a mismatch violates. */
  readonly invariant: string;
  /** Compares with the folded state at `revision`; returns what differs, or null. */
  readonly check: (state: TableState) => string | null;
}

/** A view as `viewer` got it (the API's or a push frame's) must be the fold's view at its revision. */
export function viewAt(
  revision: number,
  view: unknown,
  viewer: Actor,
  what: string,
  invariant: string,
): AtRevision {
  return {
    revision,
    what,
    invariant,
    check: (state) => {
      const expected = tableView(state, viewer);
      return sameJson(view, expected) ? null : `differs from the fold: ${jsonDiff(view, expected)}`;
    },
  };
}

/** Folds the stream once, checking each claim at its revision (claims past the head are violations). */
export function checkAgainstFold(
  events: readonly RecordedEvent[],
  claims: readonly AtRevision[],
  j: Journal,
): TableState {
  const byRevision = new Map<number, AtRevision[]>();
  for (const c of claims) {
    if (c.revision >= events.length) {
      j.violation(
        c.invariant,
        `${c.what}: revision ${c.revision} is past the log's head ${events.length - 1}`,
      );
      continue;
    }
    const list = byRevision.get(c.revision);
    if (list) list.push(c);
    else byRevision.set(c.revision, [c]);
  }
  let state = initialState;
  const run = (revision: number) => {
    for (const c of byRevision.get(revision) ?? []) {
      const diff = c.check(state);
      if (diff !== null) j.violation(c.invariant, `${c.what} at revision ${revision}: ${diff.slice(0, 600)}`);
    }
  };
  run(-1);
  events.forEach((e, i) => {
    if (Number(e.streamRevision) !== i)
      j.violation('log-contiguous', `event ${i} has revision ${e.streamRevision}`);
    state = evolve(state, { type: e.type, data: e.data } as TableEvent);
    run(i);
  });
  return state;
}
