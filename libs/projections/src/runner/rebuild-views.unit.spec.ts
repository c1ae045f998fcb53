/**
 * A PostgreSQL rebuild that fails makes the report views again over the live tables; when that fails too, the
 * rebuild's own error is thrown, its message saying so (it was dropped silently).
 */
import type { EventStore } from '@coup/event-store';
import { PROJECTIONS } from '../read-models';
import { rebuildProjections } from './rebuild';
import type { ReadModelStorage } from './storage';

test("a rebuild that fails and views that cannot be made again: the rebuild's error, naming both", async () => {
  const analyst = PROJECTIONS.find((p) => p.name === 'analyst')!;
  const rebuildError = new Error('the store went away');
  const storage = {
    dialect: 'postgres',
    // the stored version is the one rebuilt: the views stay where they are until the rebuild fails
    checkpoints: async () => [{ name: analyst.name, version: analyst.version }],
    rebuild: async () => {
      throw rebuildError;
    },
    withClient: async () => {
      throw new Error('connection refused');
    },
  } as unknown as ReadModelStorage;
  const thrown = await rebuildProjections({ store: {} as EventStore, storage, names: ['analyst'] }).then(
    () => null,
    (error: unknown) => error,
  );
  expect(thrown).toBe(rebuildError);
  const message =
    'the store went away (the report views could not be made again either: Error: connection refused)';
  expect(rebuildError.message).toBe(message);
  expect(rebuildError.stack).toMatch(new RegExp(`^Error: ${message.replace(/[()]/g, '\\$&')}\n`));
});
