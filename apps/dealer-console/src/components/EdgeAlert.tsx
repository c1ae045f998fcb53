/**
 * The remaining-shoe edge monitor on the dealer console (surveillance): while a bet the table offers favours the
 * player on the cards left in the shoe, an alert names it with its expected value. The monitor is a read model
 * (`GET /api/edge/favourable?tableId=`), so after each coup, and after a settled coup's correction or void, it is asked
 * until it has folded it.
 */
import type { EdgeNowView, EdgeTableView } from '@coup/projections/wire';
import type { ShoeView } from '@coup/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { spotLabel } from '../bets';
import { getJson } from '../replay/http';

/** After a coup, the monitor is asked again after each of these waits until it has folded the coup. */
const RETRIES_MS = [0, 250, 500, 1000, 2000, 4000, 8000];

/**
 * Whether the monitor's answer is about the shoe and coup the table's view is at, and (`amendedAt`: when the shoe's
 * last settled coup was corrected or voided, which leaves the coup count as it was or takes one off) computed since.
 */
export function edgeCurrent(
  edge: EdgeTableView | undefined,
  shoe: ShoeView | null,
  amendedAt: string | null = null,
): boolean {
  if (edge === undefined || shoe === null || edge.shoeNo !== shoe.shoeNo || edge.coupInShoe !== shoe.coups)
    return false;
  return amendedAt === null || (edge.computedAt !== null && edge.computedAt >= amendedAt);
}

/**
 * The monitor's values for this table once they match its view (and its last amendment, `amendedAt`); null before,
 * between shoes or not monitored.
 */
export function useEdgeMonitor(
  token: string,
  tableId: string,
  shoe: ShoeView | null,
  amendedAt: string | null = null,
): EdgeTableView | null {
  const [edge, setEdge] = useState<EdgeTableView | null>(null);
  const live = shoe !== null && !shoe.everyCoup && !shoe.ended;
  const shoeNo = shoe?.shoeNo ?? null;
  const coups = shoe?.coups ?? null;
  useEffect(() => {
    setEdge(null);
    if (!live) return undefined;
    let stop = false;
    const timers: number[] = [];
    const at = { shoeNo, coups } as ShoeView;
    const path = `/edge/favourable?tableId=${encodeURIComponent(tableId)}`;
    const ask = async (tries: number) => {
      let answer: EdgeTableView | undefined;
      try {
        answer = (await getJson<EdgeNowView>(token, path)).tables.find((t) => t.tableId === tableId);
      } catch {
        return; // not allowed to ask, or unreachable: no alert
      }
      if (stop) return;
      if (edgeCurrent(answer, at, amendedAt)) setEdge(answer ?? null);
      else if (tries + 1 < RETRIES_MS.length)
        timers.push(window.setTimeout(() => void ask(tries + 1), RETRIES_MS[tries + 1]));
    };
    void ask(0);
    return () => {
      stop = true;
      timers.forEach((t) => window.clearTimeout(t));
    };
  }, [token, tableId, live, shoeNo, coups, amendedAt]);
  return edge;
}

/** The alert: each bet that favours the player now, with its expected value per unit staked. */
export function EdgeAlert({ edge }: { readonly edge: EdgeTableView | null }) {
  const { t } = useTranslation('dealer');
  if (!edge || edge.favourable.length === 0) return null;
  return (
    <div className="banner banner-warn edge-alert" role="alert" data-testid="edge-alert">
      <strong>{t('edge.title')}</strong>{' '}
      {edge.favourable
        .map((v) => t('edge.bet', { spot: spotLabel(v.spot, t), ev: (v.ev * 100).toFixed(2) }))
        .join(', ')}{' '}
      {t('edge.rest', { cards: edge.cardsLeft, shoeNo: edge.shoeNo, roundNo: edge.roundNo })}
    </div>
  );
}
