import type { RecordedEvent } from '@coup/event-store';
import { tableIdOf } from '@coup/table';
import type { Client } from './live.clients';
import { TableChannel, type ChannelDeps } from './live.channel';

/**
 * The followed tables: one channel per table while a socket follows it (or is subscribing), none otherwise. Each
 * event of the log goes to its table's channel, if any.
 */
export class TableChannels {
  private readonly channels = new Map<string, TableChannel>();

  constructor(private readonly deps: ChannelDeps) {}

  /** The client follows `tableId` from now on (held: not sent anything until it joins). */
  acquire(client: Client, tableId: string): TableChannel {
    let channel = this.channels.get(tableId);
    if (!channel) this.channels.set(tableId, (channel = new TableChannel(tableId, this.deps)));
    client.tableId = tableId;
    channel.holders.add(client);
    return channel;
  }

  /** The client follows its table no more; the last one out closes the channel. */
  release(client: Client): void {
    const tableId = client.tableId;
    const channel = tableId === null ? undefined : this.channels.get(tableId);
    if (!channel) return;
    channel.leave(client);
    if (channel.holders.size === 0) {
      channel.dispose();
      this.channels.delete(channel.tableId);
    }
  }

  get(tableId: string): TableChannel | undefined {
    return this.channels.get(tableId);
  }

  get size(): number {
    return this.channels.size;
  }

  /** One event of the log: to its table's channel. */
  dispatch(e: RecordedEvent): void {
    const tableId = tableIdOf(e.streamName);
    if (tableId === null) return;
    const channel = this.channels.get(tableId);
    if (!channel) return;
    try {
      channel.onLive(e);
    } catch (error) {
      // One table's failure never stops the feed of the others.
      this.deps.failed(tableId, error);
    }
  }

  disposeAll(): void {
    for (const channel of this.channels.values()) channel.dispose();
    this.channels.clear();
  }
}
