import { TABLE_ID_SOURCE } from '@coup/table';

/** `#/tables/<id>/hands[/<roundNo>][?query]`: the hand history and a hand's replay. */
const HANDS_ROUTE = new RegExp(`^#/tables/(${TABLE_ID_SOURCE})/hands(?:/([1-9][0-9]{0,8}))?(?:\\?(.*))?$`);

/** Hash routes of the hand history and replay: `#/tables/T1/hands` and `#/tables/T1/hands/12?step=5`. */
export type ReplayRoute =
  | { readonly kind: 'hands'; readonly tableId: string }
  | {
      readonly kind: 'hand';
      readonly tableId: string;
      readonly roundNo: number;
      readonly step: number | null;
    };

export function parseReplayRoute(hash: string): ReplayRoute | null {
  const m = HANDS_ROUTE.exec(hash);
  if (!m) return null;
  const tableId = m[1] ?? '';
  if (m[2] === undefined) return { kind: 'hands', tableId };
  const step = new URLSearchParams(m[3] ?? '').get('step');
  const n = step !== null && /^[0-9]{1,6}$/.test(step) ? Number(step) : null;
  return { kind: 'hand', tableId, roundNo: Number(m[2]), step: n };
}

export function handHash(tableId: string, roundNo: number, step?: number): string {
  return `#/tables/${tableId}/hands/${roundNo}${step === undefined ? '' : `?step=${step}`}`;
}
