import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RecordedEvent } from '@coup/event-store';
import type { EventStoreHandle } from '../store/event-store.provider';
import { tableStream } from '@coup/table';
import type { TableChannel } from './live.channel';
import type { TableChannels } from './live.channels';
import type { Client, LiveClients } from './live.clients';
import type { ClientMessage } from './live.protocol';
import type { LiveSender } from './live.send';

/** A resume reads this many events at a time and lets the event loop run between reads. */
export const RESUME_PAGE = 100;

type Subscribe = Extract<ClientMessage, { type: 'subscribe' }>;

/**
 * A socket's subscribe: a fresh view of the table from its channel, or a resume (the events since the client's
 * last revision, up to `maxResumeEvents` of them, as it would have received them live); then it joins the channel.
 * Every step checks that the subscribe is still the socket's current one (its generation) and stops when it is not.
 */
export class LiveSubscriptions {
  constructor(
    private readonly handle: EventStoreHandle,
    private readonly channels: TableChannels,
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
    client.every = message.every === true;
    const channel = this.channels.acquire(client, tableId);
    const head = await this.handle.store.streamHead(tableStream(tableId));
    if (client.generation !== generation) return;
    if (head === null) return this.unknown(client, tableId);
    // The channel is then true at least up to what the store held when the client asked.
    await channel.sync(head.revision);
    if (client.generation !== generation) return;
    if (channel.state.phase === 'none') return this.unknown(client, tableId);
    const from = message.fromRevision;
    if (from !== undefined && from <= channel.revision && channel.revision - from <= this.maxResumeEvents)
      return this.resume(client, channel, generation, from);
    this.view(client, channel);
  }

  /** The table now as the client may see it, then every frame from there on. */
  private view(client: Client, channel: TableChannel): void {
    const { id, role } = client.principal;
    this.sender.send(client, {
      type: 'view',
      tableId: channel.tableId,
      revision: channel.revision,
      view: channel.viewFor({ id, role }),
    });
    channel.join(client);
  }

  /**
   * The events after `from` as the client would have received them live (a coalesced watcher: no other player's
   * bet), read in pages while the table goes on, until the client has caught up with the channel; then the
   * round's totals (a coalesced watcher), `resumed`, and every frame from there on. A client that falls further
   * behind than `maxResumeEvents` while reading gets a fresh view instead.
   */
  private async resume(
    client: Client,
    channel: TableChannel,
    generation: number,
    from: bigint,
  ): Promise<void> {
    const stream = tableStream(channel.tableId);
    let at = from;
    while (at < channel.revision) {
      if (at > from) await nextTurn();
      if (client.generation !== generation) return;
      if (at - from > BigInt(this.maxResumeEvents)) return this.view(client, channel);
      const to = channel.revision;
      const page = to - at < BigInt(RESUME_PAGE) ? Number(to - at) : RESUME_PAGE;
      const events: RecordedEvent[] = [];
      for await (const e of this.handle.store.readStream(stream, { fromRevision: at + 1n, maxCount: page }))
        events.push(e);
      if (client.generation !== generation) return;
      for (const e of events) {
        const frame = channel.frameFor(client, e);
        if (frame !== null) this.sender.frame(client, frame);
        at = e.streamRevision;
      }
      if (events.length === 0) return this.view(client, channel); // the store is behind the channel: start afresh
    }
    if (!client.every) {
      const totals = channel.totalsFrame();
      if (totals !== null) this.sender.frame(client, totals);
    }
    this.sender.send(client, { type: 'resumed', tableId: channel.tableId, revision: at });
    channel.join(client);
  }

  private unknown(client: Client, tableId: string): void {
    this.clients.leave(client);
    this.sender.error(client, 404, 'UNKNOWN_TABLE', `there is no table '${tableId}'`);
  }
}
