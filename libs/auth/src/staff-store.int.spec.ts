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

describe('a keyed command that changes nothing', () => {
  const disable = (username: string): staff.StaffCommand => ({
    type: 'DisableAccount',
    username,
    reason: 'on leave',
    by: 'boss',
    at,
  });
  const enable = (username: string): staff.StaffCommand => ({
    type: 'EnableAccount',
    username,
    by: 'boss',
    at,
  });
  /** A keyed command as the service makes one: asked after each catch-up, its ids and answer stamped. */
  const keyed = (key: string, kept: Set<string>) => ({
    recorded: () => kept.has(key),
    stamp: (index: number, last: boolean) => ({
      id: `00000000-0000-4000-8000-00000000000${index}`,
      metadata: { commandId: key, ...(last ? { reply: 'first answer' } : {}) },
    }),
  });
  const types = async (events: MemoryEventStore) =>
    (await all(events.readStream(staff.STAFF_STREAM))).map((e) => e.type);

  it('records one StaffCommandUnchanged with its key (unkeyed: nothing); the account and its tokens stay as they were', async () => {
    const events = new MemoryEventStore();
    const a = new StaffStore(events);
    await a.execute(create('boss', ['admin']), { actor: 'cli' });
    await a.execute(create('ann'), { actor: 'cli' });
    await a.execute(disable('ann'), { actor: 'boss' });
    const before = a.directory.get('ann');
    expect((await a.execute(disable('ann'), { actor: 'boss' })).decision).toEqual({
      events: [],
      refusal: null,
    });
    const kept = new Set<string>();
    const outcome = await a.execute(disable('ann'), { actor: 'boss', keyed: keyed('k-1', kept) });
    expect(outcome.decision).toEqual({ events: [], refusal: null });
    expect(outcome.directory.get('ann')).toEqual(before);
    const stream = await all(events.readStream(staff.STAFF_STREAM));
    expect(stream.map((e) => e.type)).toEqual([
      'StaffAccountCreated',
      'StaffAccountCreated',
      'StaffAccountDisabled',
      'StaffCommandUnchanged',
    ]);
    expect(stream.at(-1)).toMatchObject({
      id: '00000000-0000-4000-8000-000000000000',
      data: { username: 'ann', command: 'DisableAccount', by: 'boss', at },
      metadata: { actor: 'boss', commandId: 'k-1', reply: 'first answer' },
    });
    expect((await new StaffStore(events).catchUp()).get('ann')).toEqual(before);
    await events.close();
  });

  it('decided on a directory another store changed before its append: decided again on the new one', async () => {
    const events = new MemoryEventStore();
    const b = new StaffStore(events);
    await b.execute(create('boss', ['admin']), { actor: 'cli' });
    await b.execute(create('ann'), { actor: 'cli' });
    await b.execute(disable('ann'), { actor: 'boss' });
    // A's first append lets B enable ann just before it: A's no-op was decided on a directory no longer the head
    let raced = false;
    const racing = new Proxy(events, {
      get(target, name, receiver) {
        if (name !== 'appendToStream') return Reflect.get(target, name, receiver) as unknown;
        return async (...args: Parameters<MemoryEventStore['appendToStream']>) => {
          if (!raced) {
            raced = true;
            await b.execute(enable('ann'), { actor: 'boss' });
          }
          return target.appendToStream(...args);
        };
      },
    });
    const a = new StaffStore(racing);
    const outcome = await a.execute(disable('ann'), { actor: 'boss', keyed: keyed('k-2', new Set()) });
    expect(outcome.decision.events.map((e) => e.type)).toEqual(['StaffAccountDisabled']);
    expect(outcome.directory.get('ann')?.disabled).toBe(true);
    expect((await types(events)).slice(3)).toEqual(['StaffAccountEnabled', 'StaffAccountDisabled']);
    await events.close();
  });
});
