/**
 * What the clients of the chaos scenario sent and were answered, kept for the checks: every keyed command with its
 * first 2xx answer and its refusals, the facts the clients learnt from acknowledged commands (a round open for
 * bets, a player seated) with when they began and ended, counts of every kind of answer, and the violations.
 */
import type { TableCommandType } from '@coup/table';

/** One answered try of a keyed command. */
export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly node: string;
  readonly sentAt: number;
  readonly receivedAt: number;
}

/** A keyed command: the same key, method, path and body on every try. */
export interface KeyRecord {
  readonly key: string;
  /** Who sends it: `admin`, `dealer`, `supervisor` or `player:<id>`. */
  readonly actor: string;
  readonly type: TableCommandType;
  readonly method: string;
  readonly path: string;
  readonly body: Record<string, unknown> | undefined;
  readonly player: string | null;
  readonly roundNo: number | null;
  /** A deliberate repeat of an acknowledged command (not a retry after a failure). */
  repeats: number;
  firstSentAt: number;
  /** The first 2xx answer's body, and when it came. */
  ok: { readonly status: number; readonly body: unknown; readonly at: number } | null;
  readonly refusals: Refusal[];
  /** Tries that got no answer (connection refused or reset, timeout). */
  unanswered: number;
}

export interface Violation {
  readonly count: number;
  readonly examples: string[];
}

const EXAMPLES_KEPT = 8;

/** A span of time (performance.now() ms) during which a fact held, as far as the clients knew. */
interface Span {
  readonly from: number;
  to: number;
  /** The command whose first send ended the span (it may itself be checked against the span). */
  endedBy: string | null;
}

export class Journal {
  readonly keys = new Map<string, KeyRecord>();
  readonly counts: Record<string, number> = {};
  readonly violations = new Map<string, Violation>();
  /** Round R open for bets: from the first 2xx of OpenBetting(R) to the first send of CloseBetting/VoidRound(R). */
  private readonly bettingOpen = new Map<number, Span>();
  /** Round R dealing: from the first 2xx of CloseBetting(R) to the first send of Deal/VoidRound(R). */
  private readonly dealing = new Map<number, Span>();
  /** Player p seated: from the first 2xx of a BuyIn to the first send of a CashOut. */
  private readonly seated = new Map<string, Span[]>();

  count(name: string, n = 1): void {
    this.counts[name] = (this.counts[name] ?? 0) + n;
  }

  violation(invariant: string, detail: string): void {
    let v = this.violations.get(invariant);
    if (!v) this.violations.set(invariant, (v = { count: 0, examples: [] }));
    (v as { count: number }).count++;
    if (v.examples.length < EXAMPLES_KEPT) v.examples.push(detail);
  }

  /** The violations as a plain object (invariant -> count and examples), sorted by name. */
  violationSummary(): Record<string, Violation> {
    return Object.fromEntries([...this.violations.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  record(rec: Omit<KeyRecord, 'repeats' | 'firstSentAt' | 'ok' | 'refusals' | 'unanswered'>): KeyRecord {
    const full: KeyRecord = { ...rec, repeats: 0, firstSentAt: 0, ok: null, refusals: [], unanswered: 0 };
    this.keys.set(rec.key, full);
    return full;
  }

  /** The first try of a command is about to go out: it may end a fact the clients knew. */
  firstSend(rec: KeyRecord, at: number): void {
    rec.firstSentAt = at;
    const end = (span: Span | undefined) => {
      if (span && span.to === Infinity) {
        span.to = at;
        span.endedBy = rec.key;
      }
    };
    if (rec.roundNo !== null && (rec.type === 'CloseBetting' || rec.type === 'VoidRound'))
      end(this.bettingOpen.get(rec.roundNo));
    if (rec.roundNo !== null && (rec.type === 'Deal' || rec.type === 'VoidRound'))
      end(this.dealing.get(rec.roundNo));
    if (rec.type === 'CashOut' && rec.player !== null) end(this.seated.get(rec.player)?.at(-1));
  }

  /** A 2xx answer: the first one is kept, and a later one must equal it; it may begin a fact. */
  acknowledged(rec: KeyRecord, status: number, body: unknown, at: number, sameAsFirst: boolean): void {
    if (rec.ok) {
      if (!sameAsFirst)
        this.violation(
          'retry-answered-differently',
          `${rec.key} (${rec.type}): first ${rec.ok.status} ${JSON.stringify(rec.ok.body)}, later ${status} ${JSON.stringify(body)}`,
        );
      return;
    }
    rec.ok = { status, body, at };
    const roundNo = (body as { roundNo?: unknown } | null)?.roundNo;
    if (rec.type === 'OpenBetting' && typeof roundNo === 'number' && !this.bettingOpen.has(roundNo))
      this.bettingOpen.set(roundNo, { from: at, to: Infinity, endedBy: null });
    if (rec.type === 'CloseBetting' && rec.roundNo !== null && !this.dealing.has(rec.roundNo))
      this.dealing.set(rec.roundNo, { from: at, to: Infinity, endedBy: null });
    if (rec.type === 'BuyIn' && rec.player !== null) {
      const spans = this.seated.get(rec.player) ?? [];
      if (spans.at(-1)?.to !== Infinity) spans.push({ from: at, to: Infinity, endedBy: null });
      this.seated.set(rec.player, spans);
    }
  }

  /**
   * Refusals a linearizable service cannot give: the command was sent after the clients learnt a fact (from an
   * acknowledged command) and answered before any command that could end the fact was sent, yet refused with a
   * code that denies the fact (a bet refused as "betting closed" while its round was known open).
   */
  checkRefusalsAgainstFacts(): void {
    const within = (span: Span | undefined, r: Refusal, key: string) =>
      span !== undefined &&
      r.sentAt > span.from &&
      (r.receivedAt < span.to || (span.endedBy === key && r.receivedAt >= span.to));
    for (const rec of this.keys.values()) {
      for (const r of rec.refusals) {
        let fact: string | null = null;
        const round = rec.roundNo;
        const roundCode = r.code === 'WRONG_ROUND' || r.code === 'BETTING_CLOSED' || r.code === 'WRONG_PHASE';
        if (
          round !== null &&
          roundCode &&
          ['PlaceBet', 'ClearBets', 'Rebet', 'CloseBetting'].includes(rec.type)
        )
          if (within(this.bettingOpen.get(round), r, rec.key)) fact = `round ${round} was open for bets`;
        if (round !== null && rec.type === 'Deal' && (roundCode || r.code === 'CARD_NOT_DUE'))
          if (within(this.dealing.get(round), r, rec.key)) fact = `round ${round} was closed and not dealt`;
        if (r.code === 'UNKNOWN_PLAYER' && rec.player !== null && rec.type !== 'BuyIn')
          if (this.seated.get(rec.player)?.some((s) => within(s, r, rec.key)))
            fact = `${rec.player} was seated`;
        if (fact)
          this.violation(
            'refused-on-stale-state',
            `${rec.key} (${rec.type}) refused ${r.code} by ${r.node} although ${fact} from before it was sent until after the answer`,
          );
      }
    }
  }
}
