/**
 * The EventStoreDB the service's EventStoreDB specs run against: a real server when EVENTSTORE_CONNECTION_STRING is
 * set (`npm run test:eventstoredb`), otherwise the protocol-level stand-in (tools/esdb-standin) in this process on a
 * free loopback port. A stand-in that cannot start fails the spec; nothing is skipped.
 */
// eslint-disable-next-line @nx/enforce-module-boundaries -- the stand-in is a test tool outside every project; only specs import it, through this file
import { startStandin, type StandinNode, type StandinOptions } from '../../../tools/esdb-standin/src';

export type { StandinNode, StandinOptions };

export interface EsdbForTests {
  readonly connectionString: string;
  /** The stand-in node, or null against a real server. */
  readonly standin: StandinNode | null;
  close(): Promise<void>;
}

export async function esdbForTests(options: StandinOptions = {}): Promise<EsdbForTests> {
  const real = process.env['EVENTSTORE_CONNECTION_STRING'];
  if (real) return { connectionString: real, standin: null, close: async () => undefined };
  return standinForTests(options);
}

/** Always the stand-in: for specs that inject faults. */
export async function standinForTests(
  options: StandinOptions = {},
): Promise<EsdbForTests & { standin: StandinNode }> {
  const standin = await startStandin(options);
  return { connectionString: standin.connectionString, standin, close: () => standin.close() };
}
