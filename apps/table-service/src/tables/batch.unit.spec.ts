import { initialState, type TableCommand } from '@coup/table';
import { decideBatch } from './batch';
import type { Pending } from './table-session';

// A decider that accepts with no events, which libs/table's never does (its invariants test): the guard's case.
jest.mock('@coup/table', () => ({
  ...jest.requireActual('@coup/table'),
  decide: () => ({ ok: true, events: [] }),
}));

const pending = (key: string | null): Pending => ({
  command: { type: 'CloseTable', data: { tableId: 'T1' }, meta: {} } as unknown as TableCommand,
  key,
  requestHash: key === null ? '' : 'h',
  correlationId: undefined,
  enqueuedAt: 0n,
  resolve: () => undefined,
  reject: () => undefined,
});

describe('decideBatch: a command accepted with nothing to record', () => {
  it('keyed: refused (500 INTERNAL_ERROR), never answered OK without its key kept for the retry', () => {
    const batch = decideBatch('T1', initialState, [pending('k1')], () => undefined);
    expect(batch.events).toEqual([]);
    expect(batch.keys).toEqual([]);
    expect(batch.outcomes).toEqual([
      { ok: false, error: expect.objectContaining({ status: 500, code: 'INTERNAL_ERROR' }) },
    ]);
  });
  it('unkeyed: answered, nothing recorded (no retry to keep a promise to)', () => {
    const batch = decideBatch('T1', initialState, [pending(null)], () => undefined);
    expect(batch.outcomes).toEqual([{ ok: true, reply: undefined }]);
    expect(batch.events).toEqual([]);
  });
});
