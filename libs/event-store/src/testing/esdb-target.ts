// Where the EventStoreDB specs run: a real server when EVENTSTORE_CONNECTION_STRING is set, otherwise the
// protocol-level stand-in (tools/esdb-standin) started in this process on a free loopback port. Test-only.
// eslint-disable-next-line @nx/enforce-module-boundaries -- the stand-in is a test tool outside every project; only specs import it, through this file
import {
  startStandin,
  startStandinCluster,
  type StandinCluster,
  type StandinNode,
  type StandinOptions,
} from '../../../../tools/esdb-standin/src';

export { startStandinCluster, type StandinCluster, type StandinNode, type StandinOptions };
import { HASH_KEY, PREV_HASH_KEY } from '../eventstoredb-mapping';
import type { TamperPatch } from './contract';

export interface EsdbTarget {
  readonly connectionString: string;
  /** The stand-in node, or null against a real server. */
  readonly standin: StandinNode | null;
  close(): Promise<void>;
}

/** The real server named by EVENTSTORE_CONNECTION_STRING, else a fresh stand-in (a start failure fails the suite). */
export async function esdbTarget(options: StandinOptions = {}): Promise<EsdbTarget> {
  const real = process.env['EVENTSTORE_CONNECTION_STRING'];
  if (real) return { connectionString: real, standin: null, close: async () => undefined };
  return standinTarget(options);
}

/** Always the stand-in: for tests that inject faults a real server cannot be made to show on demand. */
export async function standinTarget(
  options: StandinOptions = {},
): Promise<EsdbTarget & { standin: StandinNode }> {
  const standin = await startStandin(options);
  return { connectionString: standin.connectionString, standin, close: () => standin.close() };
}

/**
 * The contract's tamper hook for the stand-in: rewrites a stored event's bytes behind the server. `data` and
 * `metadata` are the JSON text the adapter's chain covers; the chain fields live in the stored metadata.
 */
export function standinTamper(
  node: StandinNode,
): (stream: string, revision: bigint, patch: TamperPatch) => Promise<void> {
  return async (stream, revision, patch) => {
    const stored = node.log.stored(stream, revision);
    if (!stored) throw new Error(`no stored event ${stream}@${revision}`);
    const {
      [PREV_HASH_KEY]: prevHash,
      [HASH_KEY]: hash,
      ...own
    } = JSON.parse(new TextDecoder().decode(stored.metadata)) as Record<string, unknown>;
    const metadata = {
      ...(patch.metadata !== undefined ? (JSON.parse(patch.metadata) as Record<string, unknown>) : own),
      [PREV_HASH_KEY]: patch.prevHash ?? prevHash,
      [HASH_KEY]: patch.hash ?? hash,
    };
    node.log.tamper(stream, revision, {
      ...(patch.type !== undefined ? { type: patch.type } : {}),
      ...(patch.data !== undefined ? { data: new TextEncoder().encode(patch.data) } : {}),
      metadata: new TextEncoder().encode(JSON.stringify(metadata)),
    });
  };
}
