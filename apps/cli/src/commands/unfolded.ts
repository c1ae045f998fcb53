/**
 * What `replay` and `verify` say when the read models do not hold what was asked: the store's events of the table
 * after the position the read models are folded to, read to tell a hand not folded yet (exit 3: retry) from one that
 * is not there (exit 1).
 */
import type { EventStore } from '@coup/event-store';
import { tableStream } from '@coup/table';
import { type CliIo, EXIT } from '../io';
import type { OpenReadModels, ReadSide } from './read-side';

/**
 * Where the table's events go past the read models: the position of its last event in the store when that is
 * after `foldedTo` (null when every event of the table is folded, or the store has no such table).
 */
export async function unfoldedTail(
  store: EventStore,
  tableId: string,
  foldedTo: number,
): Promise<number | null> {
  const last = store.readStream(tableStream(tableId), { direction: 'backwards', maxCount: 1 });
  for await (const e of last) return Number(e.globalPosition) > foldedTo ? Number(e.globalPosition) : null;
  return null;
}

/** What the store has of one round of a table after the read models' position. */
export interface UnfoldedRound {
  /** An event of the round is after the position: the read models may not hold the round, or all of it, yet. */
  readonly seen: boolean;
  /** The round's end (resolved or voided, or its settled coup put right) is among those events. */
  readonly ended: boolean;
  /** The highest round number among those events (null: none has one). */
  readonly lastRound: number | null;
}

const ROUND_ENDS = new Set(['CoupResolved', 'RoundVoided', 'SettledCoupCorrected', 'SettledCoupVoided']);

/**
 * The table's events after `foldedTo` as they concern round `roundNo`, read from the last one back only until an
 * earlier round's (a table's round numbers never go down along its stream): a round beyond anything recorded is
 * answered by the table's last event that has a round number.
 */
export async function unfoldedRound(
  store: EventStore,
  tableId: string,
  roundNo: number,
  foldedTo: number,
): Promise<UnfoldedRound> {
  let seen = false;
  let ended = false;
  let lastRound: number | null = null;
  for await (const e of store.readStream(tableStream(tableId), { direction: 'backwards' })) {
    if (Number(e.globalPosition) <= foldedTo) break;
    const round = (e.data as { roundNo?: unknown } | null)?.roundNo;
    if (typeof round !== 'number') continue;
    lastRound ??= round;
    if (round < roundNo) break;
    if (round === roundNo) {
      seen = true;
      ended ||= ROUND_ENDS.has(e.type);
    }
  }
  return { seen, ended, lastRound };
}

/** A round of a table that `command` was asked for, with the read side and read models it opened. */
export interface RoundAsked {
  readonly side: ReadSide;
  readonly models: OpenReadModels;
  readonly tableId: string;
  readonly roundNo: number;
  readonly command: string;
  readonly io: CliIo;
}

/**
 * Says on stderr that the round is in the store but not (`what`: its end not) folded yet: exit 3
 * (EXIT.notFoldedYet).
 */
export async function notFoldedYet(
  { side, models, tableId, roundNo, command, io }: RoundAsked,
  what = 'is not in the read models yet',
): Promise<number> {
  const last = await unfoldedTail(side.store, tableId, models.foldedTo);
  io.stderr.write(
    `coup ${command}: round ${roundNo} of table ${tableId} ${what}: they are folded to ` +
      `position ${models.foldedTo}, the table's last event is at position ${last}; retry once the projection ` +
      'process has folded it\n',
  );
  return EXIT.notFoldedYet;
}

/**
 * The read models hold no hand of the round: exit 3 (EXIT.notFoldedYet) when the store has events of it they have
 * not folded yet; else exit 1, no such hand (missing at or below the table's last round, or beyond anything
 * recorded), naming the table's last round (folded, or in the events not folded yet).
 */
export async function handNotFolded(asked: RoundAsked): Promise<number> {
  const { side, models, tableId, roundNo, command, io } = asked;
  const unfolded = await unfoldedRound(side.store, tableId, roundNo, models.foldedTo);
  if (unfolded.seen) return notFoldedYet(asked);
  const folded = (await models.readModels.table(tableId))?.view.roundNo ?? 0;
  const last = Math.max(folded, unfolded.lastRound ?? 0);
  io.stderr.write(
    `coup ${command}: No hand ${roundNo} at table ${tableId}: ` +
      `${last > 0 ? `its last round is ${last}` : 'it has played no round'}\n`,
  );
  return EXIT.failure;
}
