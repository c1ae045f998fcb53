/**
 * Test child process (runner.int.spec.ts): catches up the read models in small transactions, printing each
 * position reached, so the parent can SIGKILL it in the middle. Usage: catch-up-child <events> <read-models> <page>
 */
import { createEventStore } from '@coup/event-store';
import { ProjectionRunner } from '../runner/runner';

async function main(): Promise<void> {
  const [eventsFile = '', readModels = '', page = '100'] = process.argv.slice(2);
  const store = createEventStore({ kind: 'sqlite', file: eventsFile });
  const runner = new ProjectionRunner({ store, readModels, catchUpPage: Number(page) });
  await runner.catchUp((position) => process.stdout.write(`${position}\n`));
  await runner.close();
  await store.close();
}

void main();
