/** Each projection's checkpoint and lag behind the store, from the stored checkpoint rows (any storage). */
import type { EventStore } from '@coup/event-store';
import type { AnyProjection } from '../read-models/kernel/types';
import { CHECKPOINTS, type CheckpointRow, type Db } from './db';

export interface ProjectionStatus {
  readonly name: string;
  readonly version: number;
  /** Global position of the last event applied. */
  readonly checkpoint: number;
  /** The store's last global position (as far as known). */
  readonly head: number;
  /** Events not yet applied (head - checkpoint where positions count events, else the events counted after it). */
  readonly lag: number;
  /** True when the head was not read to the end (lag is at least this). */
  readonly lagIsLowerBound: boolean;
  readonly updatedAt: string | null;
  readonly rebuiltAt: string | null;
  /** The version the read model was built with (null: never built); differs from `version` until refolded. */
  readonly storedVersion: number | null;
}

export interface RunnerStatus {
  readonly running: boolean;
  readonly lastError: string | null;
  readonly projections: readonly ProjectionStatus[];
}

const HEAD_SCAN_LIMIT = 100_000;

/** The head as far as known; with `positions` (those read after the lowest checkpoint), lag counts events. */
export interface KnownHead {
  readonly position: number;
  readonly lowerBound: boolean;
  readonly positions?: readonly number[];
}

/** The store's last position by reading forward from `from` (at most 100,000 events: then a lower bound). */
export async function scanHead(store: EventStore, from: number): Promise<KnownHead> {
  let position = from;
  const positions: number[] = [];
  for await (const e of store.readAll({ fromPosition: BigInt(from), maxCount: HEAD_SCAN_LIMIT })) {
    position = Number(e.globalPosition);
    positions.push(position);
  }
  return { position, lowerBound: positions.length >= HEAD_SCAN_LIMIT, positions };
}

/** How many of the ascending `positions` are after `checkpoint`. */
function countAfter(positions: readonly number[], checkpoint: number): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((positions[mid] ?? Number.POSITIVE_INFINITY) <= checkpoint) lo = mid + 1;
    else hi = mid;
  }
  return positions.length - lo;
}

/** Each projection's checkpoint (from the stored rows) and its lag behind `head`. */
export function statusOf(
  rows: readonly CheckpointRow[],
  projections: readonly AnyProjection[],
  head: KnownHead,
): ProjectionStatus[] {
  return projections.map((p) => {
    const row = rows.find((r) => r.name === p.name);
    const checkpoint = row?.position ?? 0;
    return {
      name: p.name,
      version: p.version,
      checkpoint,
      head: Math.max(head.position, checkpoint),
      lag: head.positions ? countAfter(head.positions, checkpoint) : Math.max(0, head.position - checkpoint),
      lagIsLowerBound: head.lowerBound,
      updatedAt: row?.updated_at ?? null,
      rebuiltAt: row?.rebuilt_at ?? null,
      storedVersion: row?.version ?? null,
    };
  });
}

/** Each projection's stored checkpoint and its lag behind `head`, from a SQLite read-model file (read-only). */
export function readStatus(
  db: Db,
  projections: readonly AnyProjection[],
  head: KnownHead,
): ProjectionStatus[] {
  const built =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(CHECKPOINTS) !==
    undefined;
  const rows = built ? (db.prepare(`SELECT * FROM ${CHECKPOINTS}`).all() as CheckpointRow[]) : [];
  return statusOf(rows, projections, head);
}
