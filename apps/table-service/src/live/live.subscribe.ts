import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RecordedEvent } from '@coup/event-store';
import type { EventStoreHandle } from '../store/event-store.provider';
import { tableStream, tableView } from '@coup/table';
import type { TableProcessor } from '../tables/table-processor';
import type { Client, LiveClients } from './live.clients';
import type { ClientMessage } from './live.protocol';
import type { LiveSender } from './live.send';

/** A resume reads this many events at a time and lets the event loop run between reads. */
export const RESUME_PAGE = 100;

type Subscribe = Extract<ClientMessage, { type: 'subscribe' }>;

/**
 * A socket's subscribe: a fresh view of the table, or a resume (the events since the client's last revision, up
 * to `maxResumeEvents` of them); then the live events held meanwhile. Every step checks that the subscribe is still
 * the socket's current one (its generation) and stops when it is not.
 */
export class LiveSubscriptions {
  constructor(
    private readonly handle: EventStoreHandle,
    private readonly tables: TableProcessor,
    private readonly clients: LiveClients,
    private readonly sender: LiveSender,
    private readonly maxResumeEvents: number,
  ) {}

  /**
   * Subscribes the socket to a table: a fresh view, or the events since `fromRevision`; then every live event.
   * Nothing is loaded or kept for a table that does not exist.
   */
  async subscribe(client: Client, message: Subscribe, generation: number): Promise<void> {
    const { tableId } = message;
    // Registered first, so that every event appended from here on reaches the backlog; what was appended before
    // is in the store up to `head`.
    this.clients.follow(client, tableId);
    const head = await this.handle.store.streamHead(tableStream(tableId));
    if (client.generation !== generation) return;
    if (head === null) return this.unknown(client, tableId);
    const from = message.fromRevision;
    const sent =
      from !== undefined && from <= head.revision && head.revision - from <= this.maxResumeEvents
        ? await this.resume(client, tableId, generation, from, head.revision)
        : await this.view(client, tableId, generation, head.revision);
    if (!sent) return;
    client.ready = true;
    for (const e of client.backlog.splice(0)) this.sender.event(client, e);
  }

  /** The events after `from` up to the head, then `resumed`. False when superseded meanwhile. */
  private async resume(
    client: Client,
    tableId: string,
    generation: number,
    from: bigint,
    head: bigint,
  ): Promise<boolean> {
    client.revision = from;
    if (!(await this.replay(client, tableId, generation, from + 1n, head))) return false;
    this.sender.send(client, { type: 'resumed', tableId, revision: client.revision });
    return true;
  }

  /** The table now as the client may see it, then the events up to the head. False when superseded or unknown. */
  private async view(client: Client, tableId: string, generation: number, head: bigint): Promise<boolean> {
    const { state, revision } = await this.tables.read(tableId);
    if (client.generation !== generation) return false;
    const view = tableView(state, { id: client.principal.id, role: client.principal.role });
    if (view.status === 'none') {
      this.unknown(client, tableId);
      return false;
    }
    client.revision = revision;
    this.sender.send(client, { type: 'view', tableId, revision, view });
    // The table's state may be behind the head it was read at: the events in between follow the view.
    return this.replay(client, tableId, generation, revision + 1n, head);
  }

  private unknown(client: Client, tableId: string): void {
    this.clients.leave(client);
    this.sender.error(client, 404, 'UNKNOWN_TABLE', `there is no table '${tableId}'`);
  }

  /**
   * Sends the table's events `from`..`to` in pages, letting the event loop run between pages, so that one
   * client's resume never holds the others up. False when the subscribe was superseded meanwhile.
   */
  private async replay(
    client: Client,
    tableId: string,
    generation: number,
    from: bigint,
    to: bigint,
  ): Promise<boolean> {
    const stream = tableStream(tableId);
    let next = from;
    while (next <= to) {
      if (next > from) await nextTurn();
      if (client.generation !== generation) return false;
      const page = Number(to - next + 1n < BigInt(RESUME_PAGE) ? to - next + 1n : BigInt(RESUME_PAGE));
      const events: RecordedEvent[] = [];
      for await (const e of this.handle.store.readStream(stream, { fromRevision: next, maxCount: page }))
        events.push(e);
      if (client.generation !== generation) return false;
      for (const e of events) this.sender.event(client, e);
      const last = events.at(-1);
      if (!last || events.length < page) break;
      next = last.streamRevision + 1n;
    }
    return client.generation === generation;
  }
}
