/**
 * `GET /api/projections` and the lag gauges: each projection's checkpoint and lag in the read models the queries
 * actually read (the SQLite file or the PostgreSQL database), whoever folds them: this thread's runner, the
 * service's worker thread, or another process (`coup projections run`, with COUP_PROJECTIONS=off).
 */
import type { EventStore } from '@coup/event-store';
import {
  type AnyProjection,
  CHECKPOINTS,
  type CheckpointRow,
  type KnownHead,
  type ProjectionRunner,
  type RunnerStatus,
  type SqlReader,
  scanHead,
  statusOf,
} from '@coup/projections';

/** Who folds the log into the read models. */
export type FoldedBy = 'this thread' | 'a worker thread' | 'another process';

export interface ProjectionsStatusView extends RunnerStatus {
  /** Where the read models are. */
  readonly readModels: 'sqlite' | 'postgres';
  readonly foldedBy: FoldedBy;
}

export interface ProjectionsStatusSource {
  /** The runner following the log in this thread (foldedBy 'this thread'), else null. */
  readonly runner: ProjectionRunner | null;
  /** The queries' reader over the read models. */
  readonly reader: SqlReader;
  readonly store: EventStore;
  readonly projections: readonly AnyProjection[];
  readonly foldedBy: FoldedBy;
  /** The store's last position where positions count events (SQLite, memory); else the events are counted. */
  readonly headPosition?: () => Promise<bigint | null>;
}

/** The stored checkpoints, none while the table is not made yet. */
async function checkpointRows(reader: SqlReader): Promise<CheckpointRow[]> {
  const exists =
    reader.dialect === 'postgres'
      ? (await reader.get<{ t: string | null }>('SELECT to_regclass(?) AS t', [CHECKPOINTS]))?.t != null
      : (await reader.get("SELECT 1 AS t FROM sqlite_master WHERE type = 'table' AND name = ?", [
          CHECKPOINTS,
        ])) !== undefined;
  return exists ? reader.all<CheckpointRow>(`SELECT * FROM ${CHECKPOINTS}`) : [];
}

export class ProjectionsStatus {
  constructor(private readonly source: ProjectionsStatusSource) {}

  async status(): Promise<ProjectionsStatusView> {
    const { runner, reader, foldedBy } = this.source;
    const where = { readModels: reader.dialect, foldedBy } as const;
    if (runner !== null) return { ...(await runner.status()), ...where };
    const rows = await checkpointRows(reader);
    const lowest = Math.min(
      ...this.source.projections.map((p) => rows.find((r) => r.name === p.name)?.position ?? 0),
    );
    const head: KnownHead = this.source.headPosition
      ? { position: Number((await this.source.headPosition()) ?? 0), lowerBound: false }
      : await scanHead(this.source.store, lowest);
    // Folded elsewhere: this thread runs no runner (a worker's errors are in the service's log).
    return {
      running: false,
      lastError: null,
      projections: statusOf(rows, this.source.projections, head),
      ...where,
    };
  }
}
