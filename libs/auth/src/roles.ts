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
}

/** The authenticated caller as the service sees it. */
export interface Principal {
  readonly id: string;
  readonly role: Role;
  readonly tables: readonly string[] | null;
}
