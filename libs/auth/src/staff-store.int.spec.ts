/**
 * The staff stream through the event-store port: two stores (two processes) on one event store see each other's
 * changes on their next command or catch-up, and a race between them is decided again, never lost.
 */
import { MemoryEventStore } from '@coup/event-store';
import { StaffStore } from './staff-store';
import { staff } from './index';

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const HASH = 'scrypt$10$8$1$c2FsdHNhbHQ$' + 'A'.repeat(43);
const at = '2030-01-01T08:00:00.000Z';
const create = (username: string, roles: staff.StaffRole[] = ['dealer']): staff.StaffCommand => ({
  type: 'CreateAccount',
  username,
  roles,
  tables: null,
  passwordHash: HASH,
  by: 'cli',
  at,
});

it('records each command in the staff stream with its actor, and another store folds it on catch-up', async () => {
  const events = new MemoryEventStore();
  const a = new StaffStore(events);
  const b = new StaffStore(events);
  const made = await a.execute(create('boss', ['admin']), { actor: 'cli', correlationId: 'c-1' });
  expect(made.decision.refusal).toBeNull();
  expect(made.directory.get('boss')?.roles).toEqual(['admin']);
  expect(b.directory.size).toBe(0);
  expect((await b.catchUp()).get('boss')?.createdBy).toBe('cli');
  const [recorded] = await all(events.readStream(staff.STAFF_STREAM));
  expect(recorded).toMatchObject({
    type: 'StaffAccountCreated',
    metadata: { actor: 'cli', correlationId: 'c-1' },
  });
  expect(b.lastPosition).toBe(recorded!.globalPosition);
  await events.close();
});

it('two stores creating at once: every account is recorded once, the same name is refused once', async () => {
  const events = new MemoryEventStore();
  const a = new StaffStore(events);
  const b = new StaffStore(events);
  const outcomes = await Promise.all([
    a.execute(create('ann'), { actor: 'cli' }),
    b.execute(create('bob'), { actor: 'cli' }),
    a.execute(create('cat'), { actor: 'cli' }),
    b.execute(create('ann'), { actor: 'cli' }),
  ]);
  expect(outcomes.map((o) => o.decision.refusal?.code ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ACCOUNT_EXISTS']);
  const names = (await all(events.readStream(staff.STAFF_STREAM))).map(
    (e) => (e.data as { username: string }).username,
  );
  expect(names.sort()).toEqual(['ann', 'bob', 'cat']);
  expect([...(await a.catchUp()).keys()].sort()).toEqual(['ann', 'bob', 'cat']);
  await events.close();
});
