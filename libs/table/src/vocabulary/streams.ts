/** The event stream of a table: every fact of it, in order. */
export const TABLE_STREAM_PREFIX = 'table-';
/** The stream of a table's snapshots (a cache of its state; ADR-7). */
export const SNAPSHOT_STREAM_PREFIX = 'tablesnapshot-';

export const tableStream = (tableId: string): string => `${TABLE_STREAM_PREFIX}${tableId}`;
export const snapshotStream = (tableId: string): string => `${SNAPSHOT_STREAM_PREFIX}${tableId}`;

/** The table id of a table stream's name, or null for any other stream. */
export const tableIdOf = (streamName: string): string | null =>
  streamName.startsWith(TABLE_STREAM_PREFIX) ? streamName.slice(TABLE_STREAM_PREFIX.length) : null;
