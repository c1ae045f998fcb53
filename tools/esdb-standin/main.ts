// Runs the EventStoreDB stand-in as a process, for trying Coup's EventStoreDB path by hand:
//   node tools/run-ts.mjs tools/esdb-standin/main.ts [--port 2113] [--nodes 1] [--max-append-size 1048576]
//   COUP_EVENT_STORE=eventstoredb EVENTSTORE_CONNECTION_STRING='esdb://127.0.0.1:2113?tls=false' npm start
// A TEST DOUBLE: it keeps everything in memory and loses it on exit. Never point a casino at it.
import { parseArgs } from 'node:util';
import { startStandinCluster } from './src';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '2113' },
      nodes: { type: 'string', default: '1' },
      'max-append-size': { type: 'string' },
      'write-timeout-ms': { type: 'string' },
      'no-batch-append': { type: 'boolean', default: false },
    },
  });
  const cluster = await startStandinCluster(Number(values.nodes), {
    port: Number(values.port),
    ...(values['max-append-size'] ? { maxAppendSize: Number(values['max-append-size']) } : {}),
    ...(values['write-timeout-ms'] ? { writeTimeoutMs: Number(values['write-timeout-ms']) } : {}),
    batchAppend: !values['no-batch-append'],
  });
  const connection = cluster.nodes.length > 1 ? cluster.connectionString : cluster.leader.connectionString;
  process.stdout.write(
    `EventStoreDB STAND-IN (in memory, for tests only) serving ${connection}\n` +
      `  COUP_EVENT_STORE=eventstoredb EVENTSTORE_CONNECTION_STRING='${connection}'\n`,
  );
  const stop = (): void => {
    void cluster.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`esdb-standin: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
