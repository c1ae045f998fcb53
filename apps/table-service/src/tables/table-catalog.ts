import { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent, Subscription } from '@coup/event-store';

export interface CatalogEntry {
  readonly tableId: string;
  readonly status: 'open' | 'closed';
  readonly dealing: string | null;
  readonly openedAt: string | null;
}

/**
 * The list of tables, folded from `TableOpened` / `TableClosed` in the global log: read to the end at start,
 * then followed live from that position, so tables opened by another service process appear too.
 */
export class TableCatalog {
  private readonly tables = new Map<string, CatalogEntry>();
  private subscription: Subscription | null = null;
  private readonly log = new Logger('catalog');

  constructor(private readonly store: EventStore) {}

  private apply(e: RecordedEvent): void {
    if (e.type === 'TableOpened') {
      const data = e.data as { tableId?: string; rules?: { dealing?: string }; at?: string };
      if (data.tableId) {
        this.tables.set(data.tableId, {
          tableId: data.tableId,
          status: 'open',
          dealing: data.rules?.dealing ?? null,
          openedAt: data.at ?? null,
        });
      }
    } else if (e.type === 'TableClosed') {
      const tableId = e.streamName.replace(/^table-/, '');
      const entry = this.tables.get(tableId);
      if (entry) this.tables.set(tableId, { ...entry, status: 'closed' });
    }
  }

  /** Reads the history, then follows the log live. Resolves once the history has been read. */
  async start(): Promise<void> {
    let last: bigint | undefined;
    for await (const e of this.store.readAll()) {
      this.apply(e);
      last = e.globalPosition;
    }
    const sub = this.store.subscribeToAll(last === undefined ? {} : { fromPosition: last });
    this.subscription = sub;
    void (async () => {
      try {
        for await (const e of sub) this.apply(e);
      } catch (error) {
        this.log.error({
          msg: 'table catalog subscription stopped',
          error: String((error as Error).message),
        });
      }
    })();
  }

  list(): CatalogEntry[] {
    return [...this.tables.values()].sort((a, b) => a.tableId.localeCompare(b.tableId));
  }

  openTableIds(): string[] {
    return this.list()
      .filter((t) => t.status === 'open')
      .map((t) => t.tableId);
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
  }
}
