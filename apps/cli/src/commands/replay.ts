import { SIDE_BETS, isSideSpot } from '@coup/engine';
import { type ReplayEvent, type ReplayStep, replayHand } from '@coup/projections';
import { type TableView, stakedSpots } from '@coup/table';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { type CliIo, EXIT, UsageError } from '../io';
import {
  type OpenReadModels,
  type ReadSide,
  closingAfter,
  money,
  openReadSide,
  withReadModels,
} from './read-side';
import { handNotFolded } from './unfolded';

const OPTIONS = {
  table: { type: 'string' },
  round: { type: 'integer', min: 1 },
  json: { type: 'boolean' },
} as const;

type D = Record<string, unknown>;

/** A spot as people read it: the main spots by name, a side bet by its catalogue label. */
export function spotName(spot: unknown): string {
  return isSideSpot(spot) ? SIDE_BETS[spot].label : String(spot);
}

/** The table's game mode and side bets, as a table's opening records them. */
function describeRules(rules: TableView['rules']): string {
  if (!rules) return '';
  const side = Object.entries(rules.sideBets ?? {}).map(
    ([spot, r]) => `${spotName(spot)} ${r.paytable} ${money(r.min)}-${money(r.max)}`,
  );
  return `${rules.game ?? 'commission'} game, ${rules.dealing}, ${rules.decks} decks${side.length ? `; side bets: ${side.join(', ')}` : ''}`;
}

/**
 * Control, format (bidi, zero-width), line-separator characters and lone surrogates: what a reason recorded before
 * the decider refused them (REASON_TEXT) may hold, and must not reach a terminal as is.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** `text` with each unprintable character written as its escape (`\u001b`, `\u202e`), so it cannot drive a terminal. */
export function escapeUnprintable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** An event's data with every string in it escaped (`escapeUnprintable`), at any depth. */
function printable(value: unknown): unknown {
  if (typeof value === 'string') return escapeUnprintable(value);
  if (Array.isArray(value)) return value.map(printable);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeUnprintable(k), printable(v)]));
  return value;
}

/** One line saying what an event did; any string the event holds is printed escaped (`escapeUnprintable`). */
export function describeEvent(e: ReplayEvent): string {
  const d = printable(e.data) as D;
  const who = typeof d['by'] === 'string' ? ` by ${d['by']}` : '';
  switch (e.type) {
    case 'BettingOpened':
      return `betting opened for round ${d['roundNo']} (shoe ${d['shoeNo']}${d['deadline'] ? `, closes ${d['deadline']}` : ''})${who}`;
    case 'TableOpened':
      return `table ${d['tableId']} opened: ${describeRules(d['rules'] as TableView['rules'])}${who}`;
    case 'BetPlaced':
      return `${d['playerId']} bets ${money(Number(d['amount']))} on ${spotName(d['spot'])}${d['rebet'] ? ' (rebet)' : ''}${who}`;
    case 'BetsCleared':
      return `${d['playerId']} clears bets: ${money(Number(d['returned']))} back${who}`;
    case 'BettingClosed':
      return `no more bets (${d['by']}, ${d['actorId']})`;
    case 'CardDealt':
      return `card ${Number(d['index']) + 1}: ${d['card']} to ${d['to']} (${d['slot']}, shoe position ${d['shoePosition']})${who}`;
    case 'CardCorrected':
      return `card ${Number(d['index']) + 1} corrected: ${d['oldCard']} -> ${d['newCard']}${who}`;
    case 'CoupResolved': {
      const s =
        (d['settlements'] as {
          playerId: string;
          spot: string;
          amount: number;
          result: string;
          paid: number;
          commission: number;
          paytable?: string;
        }[]) ?? [];
      const pays = s.map(
        (x) =>
          `${x.playerId} ${spotName(x.spot)} ${money(x.amount)} ${x.result} paid ${money(x.paid)}` +
          `${x.paytable ? ` (paytable ${x.paytable})` : ''}${x.commission ? ` (commission ${money(x.commission)})` : ''}`,
      );
      return (
        `player ${d['playerTotal']} (${(d['playerCards'] as string[]).join(' ')}) banker ${d['bankerTotal']} (${(d['bankerCards'] as string[]).join(' ')}): ` +
        `${d['outcome'] === 'tie' ? 'tie' : `${d['outcome']} wins`}${d['natural'] ? ', natural' : ''}` +
        (pays.length ? `\n      ${pays.join('\n      ')}` : '')
      );
    }
    case 'RoundVoided': {
      const r = (d['returned'] as { playerId: string; amount: number }[]) ?? [];
      return `round voided${who}: ${d['reason']}${r.length ? `; returned ${r.map((x) => `${x.playerId} ${money(x.amount)}`).join(', ')}` : ''}`;
    }
    case 'PlayerBoughtIn':
      return `${d['playerId']} buys in ${money(Number(d['amount']))}${who}`;
    case 'PlayerCashedOut':
      return `${d['playerId']} cashes out ${money(Number(d['paid']))}${who}`;
    default:
      return JSON.stringify(d);
  }
}

/** One line with the table after the event. */
export function describeView(v: TableView): string {
  const r = v.round;
  const parts = [`phase ${v.phase}`];
  if (r) {
    const t = r.bets.totals;
    const side = stakedSpots(t).filter(isSideSpot);
    parts.push(
      `stakes P ${money(t.player)} B ${money(t.banker)} T ${money(t.tie)}` +
        side.map((spot) => `, ${spotName(spot)} ${money(t[spot] ?? 0)}`).join(''),
    );
    if (r.cards.length)
      parts.push(`cards ${r.cards.map((c) => `${c.card}>${c.to === 'player' ? 'P' : 'B'}`).join(' ')}`);
    if (r.next && r.next.to !== 'complete') parts.push(`next card to ${r.next.to}`);
  }
  if (v.shoe) parts.push(`${v.shoe.cardsLeft} cards left`);
  return parts.join('; ');
}

function print(step: ReplayStep): string {
  const e = step.event;
  return `#${e.revision} @${e.position} ${e.recordedAt} ${e.type}\n    ${describeEvent(e)}\n    table: ${describeView(step.view)}\n`;
}

/**
 * Prints the hand (text or JSON), a hand in play as far as it has gone; a hand the read models do not hold exits 3
 * when the store has events of it they have not folded yet, else 1 (no such hand).
 */
async function replayOne(
  side: ReadSide,
  models: OpenReadModels,
  tableId: string,
  roundNo: number,
  json: boolean,
  io: CliIo,
): Promise<number> {
  let r;
  try {
    r = await replayHand({ store: side.store, readModels: models.readModels }, tableId, roundNo);
  } catch (error) {
    if ((error as { code?: string }).code !== 'UNKNOWN_HAND') throw error;
    return handNotFolded({ side, models, tableId, roundNo, command: 'replay', io });
  }
  if (json) {
    io.stdout.write(`${JSON.stringify(r)}\n`);
    return EXIT.ok;
  }
  const inPlay = r.status === 'betting' || r.status === 'dealing' ? ' (in play: the hand so far)' : '';
  io.stdout.write(`table ${r.tableId}, round ${r.roundNo}, shoe ${r.shoeNo}: ${r.status}${inPlay}\n`);
  io.stdout.write(`before: ${describeView(r.before)}\n`);
  for (const step of r.steps) io.stdout.write(print(step));
  return EXIT.ok;
}

/** `coup replay --table T --round N`: the hand step by step. */
export const replay: Command = {
  name: 'replay',
  summary: 'print a hand step by step: each event and the table after it',
  usage: [
    'coup replay --table T --round N [--json]',
    '',
    '  --table T   the table id',
    '  --round N   the round number',
    '  --json      print the replay as JSON (events and the table view after each)',
    '',
    '  Reads the store directly (works with the service stopped): COUP_DATA_DIR, default ./data. The hand is',
    '  found through the hand-history read model, where COUP_READ_MODELS names the read models, and only its',
    '  events are read. A SQLite file (the default) is caught up first. A postgres:// URL is only read, as the',
    '  projection process (coup projections run) left it: nothing is written there.',
    '',
    "  A hand in play (betting or dealing) is shown as far as it has gone, marked 'in play'.",
    '',
    "  Exit 0 with the hand; 1 when there is no such hand (missing at or below the table's last round, or beyond",
    '  any round recorded: the message names the last round), or the read models are not built yet; 3 when the',
    '  store has events of the hand the read models have not folded yet (the message gives both positions):',
    '  retry once the projection process has folded them.',
  ].join('\n'),
  async run(args, io) {
    const { options } = parseArgs('replay', args, OPTIONS);
    const { table, round } = options;
    if (!table) throw new UsageError('--table is required', 'replay');
    if (round === undefined) throw new UsageError('--round is required', 'replay');
    const side = openReadSide('replay');
    return closingAfter(
      () =>
        withReadModels(side, io, 'replay', (models) =>
          replayOne(side, models, table, round, options.json, io),
        ),
      () => side.close(),
    );
  },
};
