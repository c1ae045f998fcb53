/** The analysts' row of a correction or void (an_fact_amendments). */
import type { Card, Returned } from '@coup/table';
import type { Write } from '../kernel/types';
import { AN_AMENDMENTS } from './schema-facts';
import type { Step } from './step';
import { sumHold } from './sums';

export type AmendmentKind = 'card-correction' | 'round-void' | 'settled-correction' | 'settled-void';

/** What the events of a correction or void carry (the fields each has). */
interface AmendmentData {
  readonly roundNo: number;
  readonly shoeNo?: number;
  readonly at: string;
  readonly by: string;
  readonly role: string;
  readonly reason?: string;
  readonly index?: number;
  readonly oldCard?: Card;
  readonly newCard?: Card;
  readonly returned?: readonly Returned[];
}

/**
 * The row of a correction or void at the time it was made; `wins`: the house's actual win on a settled coup
 * before and after (null for a round not settled yet). Counts the supervisor's amendment.
 */
export function amendmentRow(
  step: Step,
  kind: AmendmentKind,
  d: AmendmentData,
  wins: { readonly winBefore: number; readonly winAfter: number } | null,
): Write {
  const p = step.place(d.at);
  const s = step.state;
  const round = s.round !== null && s.round.roundNo === d.roundNo ? s.round : null;
  const settled = s.settled !== null && s.settled.roundNo === d.roundNo ? s.settled : null;
  step.staff('amendments', d.at);
  const voided = kind === 'round-void' || kind === 'settled-void';
  sumHold(step, p, round?.dealerId ?? null, voided ? { voids: 1, facts: 1 } : { corrections: 1, facts: 1 });
  return {
    kind: 'upsert',
    table: AN_AMENDMENTS,
    row: {
      position: step.e.position,
      table_id: s.tableId,
      round_no: d.roundNo,
      shoe_no: d.shoeNo ?? round?.shoeNo ?? null,
      kind,
      reason: d.reason ?? null,
      by_id: d.by,
      by_role: d.role,
      dealer_id: round?.dealerId ?? null,
      card_index: d.index ?? null,
      old_card: d.oldCard ?? null,
      new_card: d.newCard ?? null,
      returned: d.returned === undefined ? null : d.returned.reduce((sum, r) => sum + r.amount, 0),
      win_before: wins?.winBefore ?? null,
      win_after: wins?.winAfter ?? null,
      coup_gaming_day: settled === null ? null : step.placeOnly(settled.at).gamingDay,
      at: d.at,
      at_ms: p.atMs,
      gaming_day: p.gamingDay,
      shift: p.shift,
      hour: p.hour,
    },
  };
}
