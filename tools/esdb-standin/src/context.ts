// What the RPC handlers of a stand-in node see of it.
import type * as GrpcJs from '@grpc/grpc-js';
import type { Faults } from './faults';
import type { StandinLog } from './log';

export interface StandinOptions {
  /** Loopback by default. */
  host?: string;
  /** 0 (default): a free port. */
  port?: number;
  /** The server's `MaxAppendSize`: bytes per append, summed over data, metadata and 2 x type (default 1 MiB). */
  maxAppendSize?: number;
  /** KurrentDB's `MaxAppendEventSize` per event (default: no limit, as EventStoreDB 24.10's int.MaxValue). */
  maxAppendEventSize?: number;
  /** Commit timeout in ms (`CommitTimeoutMs`/`WriteTimeoutMs`, default 2000). */
  writeTimeoutMs?: number;
  /** Advertise and serve BatchAppend, which @eventstore/db-client 6 then uses for every append (default true). */
  batchAppend?: boolean;
  /** Stream reads carry `$all` positions (22.6 and later, default true); false answers as older servers did. */
  streamPositions?: boolean;
  /** What ServerFeatures answers as the server version (default 24.10.4). */
  serverVersion?: string;
  /** A `$statsCollected` system event after every this many appends (default 10; 0: never). */
  statsEvery?: number;
}

export type ResolvedOptions = Required<Omit<StandinOptions, 'port'>>;

export const DEFAULT_OPTIONS: ResolvedOptions = {
  host: '127.0.0.1',
  maxAppendSize: 1024 * 1024,
  maxAppendEventSize: 2_147_483_647,
  writeTimeoutMs: 2000,
  batchAppend: true,
  streamPositions: true,
  serverVersion: '24.10.4',
  statsEvery: 10,
};

/** One RPC a node served, for tests that check what the client asked (e.g. how many events a read wanted). */
export interface ServedCall {
  readonly rpc:
    'read' | 'subscribe' | 'append' | 'batchAppend' | 'delete' | 'tombstone' | 'features' | 'gossip';
  readonly stream: string | null;
  readonly direction?: 'forwards' | 'backwards';
  readonly count?: bigint;
  readonly requiresLeader: boolean;
}

/** An append the node refused for its size (`MaximumAppendSizeExceeded`, or KurrentDB's per-event limit). */
export interface AppendRefusal {
  readonly stream: string;
  readonly limit: 'append' | 'event';
}

export interface NodeContext {
  readonly log: StandinLog;
  readonly options: ResolvedOptions;
  readonly faults: Faults;
  isLeader(): boolean;
  /** Where the leader serves (for a follower's NotLeader answer). */
  leaderEndpoint(): { host: string; port: number };
  /** Reads see records before this position (a follower that has not replicated the rest). */
  visibleEnd(): bigint;
  served(call: ServedCall): void;
  refused(refusal: AppendRefusal): void;
}

export function requiresLeader(metadata: GrpcJs.Metadata): boolean {
  return metadata.get('requires-leader').some((v) => String(v) === 'true');
}
