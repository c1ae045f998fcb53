import type { RecordedEvent } from '@coup/event-store';
import { redactEvent, type Actor, type TableEvent } from '@coup/table';

/** JSON text of a frame, made once and sent as is to every socket it is for (bigints as numbers). */
export function serialize(message: unknown): Buffer {
  return Buffer.from(JSON.stringify(message, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)));
}

/** JSON text of a frame that holds no bigint (the fan-out's frames: stringified without a replacer, faster). */
export function serializePlain(message: object): Buffer {
  return Buffer.from(JSON.stringify(message));
}

/** A player no event names (player ids start with a letter or digit): what every uninvolved player may see. */
export const ANY_PLAYER: Actor = Object.freeze({ id: '', role: 'player' });

/** Staff, compliance and analysts see every event alike (seeds aside): redacted for no player. */
const STAFF: Actor | undefined = undefined;

/** A bet of one player: coalesced into the totals for everyone but that player and staff who ask for every event. */
export function isBetEvent(
  event: TableEvent,
): event is Extract<TableEvent, { type: 'BetPlaced' | 'BetsCleared' }> {
  return event.type === 'BetPlaced' || event.type === 'BetsCleared';
}

/**
 * The players for whom `redactEvent` gives something else than it gives any other player: those whose own chips,
 * bets or settlements the event carries. Every other player gets the one frame redacted for {@link ANY_PLAYER}.
 */
export function involvedPlayers(event: TableEvent): readonly string[] {
  switch (event.type) {
    case 'PlayerBoughtIn':
    case 'PlayerCashedOut':
    case 'BetPlaced':
    case 'BetsCleared':
      return [event.data.playerId];
    case 'CoupResolved':
      return event.data.settlements.map((s) => s.playerId);
    case 'RoundVoided':
      return event.data.returned.map((r) => r.playerId);
    case 'SettledCoupCorrected':
      return [...new Set([...event.data.reversed, ...event.data.settlements].map((s) => s.playerId))];
    case 'SettledCoupVoided':
      return [...new Set([...event.data.reversed, ...event.data.returned].map((s) => s.playerId))];
    default:
      return [];
  }
}

/** The frame of one event as `event` redacted for a viewer (null: that viewer gets nothing). */
function eventFrame(tableId: string, e: RecordedEvent, event: TableEvent | null): Buffer | null {
  if (event === null) return null;
  // An event's data is JSON from the store: only the revision and position are bigints.
  return serializePlain({
    type: 'event',
    tableId,
    revision: Number(e.streamRevision),
    position: Number(e.globalPosition),
    at: e.recordedAt,
    event,
  });
}

/**
 * One event's frames, each made once however many sockets take it: one for staff, one for every uninvolved player,
 * and one for each player the event names (its own data, for its sockets only). Made when first asked for; when a
 * viewer's redacted event is the very one staff get (a table event, a player's own bet), it shares staff's bytes.
 */
export class EventFrames {
  private staffEvent: TableEvent | null | undefined;
  private staffFrame: Buffer | null | undefined;
  private playersFrame: Buffer | null | undefined;
  private readonly own = new Map<string, Buffer | null>();
  private involved: ReadonlySet<string> | undefined;

  constructor(
    private readonly tableId: string,
    readonly recorded: RecordedEvent,
    readonly event: TableEvent,
  ) {}

  /** The frame for staff, compliance and analysts (null never: they see every event). */
  staff(): Buffer | null {
    if (this.staffFrame === undefined) {
      this.staffEvent = redactEvent(this.event, STAFF);
      this.staffFrame = eventFrame(this.tableId, this.recorded, this.staffEvent);
    }
    return this.staffFrame;
  }

  /** The frame of the event as redacted for a viewer: staff's own bytes when it is staff's event. */
  private frameOf(redacted: TableEvent | null): Buffer | null {
    const staff = this.staff();
    return redacted === this.staffEvent ? staff : eventFrame(this.tableId, this.recorded, redacted);
  }

  /** The frame for player `playerId`: its own when the event names it, else the one every other player gets. */
  player(playerId: string): Buffer | null {
    this.involved ??= new Set(involvedPlayers(this.event));
    if (!this.involved.has(playerId)) {
      if (this.playersFrame === undefined)
        this.playersFrame = this.frameOf(redactEvent(this.event, ANY_PLAYER));
      return this.playersFrame;
    }
    let frame = this.own.get(playerId);
    if (frame === undefined) {
      frame = this.frameOf(redactEvent(this.event, { id: playerId, role: 'player' }));
      this.own.set(playerId, frame);
    }
    return frame;
  }

  /** The frame for a viewer of this role and id. */
  for(viewer: Actor): Buffer | null {
    return viewer.role === 'player' ? this.player(viewer.id) : this.staff();
  }
}
