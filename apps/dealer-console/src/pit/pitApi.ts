/** The pit's calls: open and close tables, buy players in and cash them out, and the staff accounts. */
import { type Fetch, command, request } from '../api';

/** `POST .../cash-out`'s answer: cash paid, and the box commission collected from the chips first. */
export interface CashOutAnswer {
  readonly playerId: string;
  readonly paid: number;
  readonly commissionCollected: number;
  readonly commissionOwed: number;
}

/** `DELETE /api/tables/:id`'s answer, with each player cashed out by `?cashOutAll=true`. */
export interface CloseAnswer {
  readonly tableId: string;
  readonly closed: true;
  readonly cashedOut: readonly Omit<CashOutAnswer, 'commissionOwed'>[];
}

export interface BuyInAnswer {
  readonly playerId: string;
  readonly amount: number;
  readonly chips: number;
}

/** A staff account as `GET /api/staff` lists it (never a password). */
export interface StaffAccount {
  readonly username: string;
  readonly roles: readonly string[];
  readonly tables: readonly string[] | null;
  readonly source: string;
  readonly disabled: boolean;
  readonly lockedUntil: string | null;
  readonly failures: number;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly lastSignInAt: string | null;
}

export interface NewStaff {
  readonly username: string;
  readonly password: string;
  readonly roles: readonly string[];
  readonly tables: readonly string[];
}

export function pitClient(token: string, fetchFn?: Fetch) {
  // every command carries its action's Idempotency-Key: a buy-in sent again after a lost answer is recorded once
  const call = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    (method === 'GET' ? request<T> : command<T>)(token, method, path, body, fetchFn ? { fetchFn } : {});
  const t = (tableId: string) => `/tables/${encodeURIComponent(tableId)}`;
  const p = (tableId: string, playerId: string) => `${t(tableId)}/players/${encodeURIComponent(playerId)}`;
  const s = (username: string) => `/staff/${encodeURIComponent(username)}`;
  return {
    openTable: (tableId: string, rules: unknown) => call<unknown>('POST', '/tables', { tableId, rules }),
    closeTable: (tableId: string, cashOutAll: boolean) =>
      call<CloseAnswer>('DELETE', `${t(tableId)}${cashOutAll ? '?cashOutAll=true' : ''}`),
    buyIn: (tableId: string, playerId: string, amount: number) =>
      call<BuyInAnswer>('POST', `${p(tableId, playerId)}/buy-in`, { amount }),
    cashOut: (tableId: string, playerId: string) =>
      call<CashOutAnswer>('POST', `${p(tableId, playerId)}/cash-out`),
    staff: () => call<StaffAccount[]>('GET', '/staff'),
    createStaff: (account: NewStaff) => call<StaffAccount>('POST', '/staff', account),
    setRoles: (username: string, roles: readonly string[]) =>
      call<StaffAccount>('PUT', `${s(username)}/roles`, { roles }),
    setTables: (username: string, tables: readonly string[]) =>
      call<StaffAccount>('PUT', `${s(username)}/tables`, { tables }),
    disable: (username: string, reason: string) =>
      call<StaffAccount>('POST', `${s(username)}/disable`, { reason }),
    enable: (username: string) => call<StaffAccount>('POST', `${s(username)}/enable`),
    resetPassword: (username: string, password: string) =>
      call<StaffAccount>('POST', `${s(username)}/password`, { password }),
  };
}

export type PitApi = ReturnType<typeof pitClient>;
