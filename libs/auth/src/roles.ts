/** Who may do what is decided per route (and again in the decider for the domain's own rules). */
export const ROLES = ['admin', 'dealer', 'supervisor', 'player', 'compliance', 'analyst'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The claims Coup puts in a token. `tables` limits a dealer or supervisor to the named tables. */
export interface Claims {
  readonly sub: string;
  readonly role: Role;
  readonly tables?: readonly string[];
  readonly iat?: number;
  readonly exp?: number;
  /** A staff sign-in's token: every role the account holds (`role` is the one it acts in). */
  readonly roles?: readonly Role[];
  /** A staff sign-in's token: the account's token generation it was issued at (ended once the account moves on). */
  readonly gen?: number;
}

/** The authenticated caller as the service sees it. */
export interface Principal {
  readonly id: string;
  readonly role: Role;
  readonly tables: readonly string[] | null;
  /**
   * Present on a token a staff sign-in issued: the account's token generation then. Such a token is good only while
   * the account is enabled and still at this generation (sign-out and account changes move it on).
   */
  readonly generation?: number;
  /** A staff sign-in's token: every role the account held when it was issued. */
  readonly roles?: readonly Role[];
}
