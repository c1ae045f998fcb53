/**
 * Who may call which route: the one access matrix of the API (role x route). The README's API table mirrors it,
 * the query controllers take their roles from it, and tests hold every controller's roles, the README and the
 * answers over HTTP to it.
 *
 * A cell is `yes`, `no` (403 FORBIDDEN from the route guard), or `own`: a player only for itself (its own bets and
 * ledger, its own online table; 403 otherwise). Finer rules stay the decider's (a player's personal online table
 * takes bets and deals only from its player: PERSONAL_TABLE; no player reads another's personal table: the
 * route guard and the live subscribe, auth.ts). Why these: roads are the table's public scoreboard,
 * shown to everyone at a live baccarat table; hand histories are the audit trail of staff and auditors (and of a
 * player for its own online game); statistics (handle, house result, hold) and other players' ledgers are
 * management and compliance data, not a dealer's.
 */
import { ROLES, type Role } from '@coup/auth';

export type Access = 'yes' | 'own' | 'no';

/** A route's row: its roles in the order of ROLE_COLUMNS. */
export interface AccessRow {
  /** `METHOD /path` exactly as routed, with `:params`. */
  readonly route: string;
  readonly access: Readonly<Record<Role, Access>>;
}

/** The matrix's columns, in the README's order (admin, dealer, supervisor, player, compliance, analyst). */
export const ROLE_COLUMNS: readonly Role[] = ROLES;

const row = (route: string, cells: string): AccessRow => {
  const parts = cells.split(/\s+/) as Access[];
  if (parts.length !== ROLE_COLUMNS.length || parts.some((p) => !['yes', 'own', 'no'].includes(p)))
    throw new Error(`access row ${route}: one of yes, own, no for each of ${ROLE_COLUMNS.join(', ')}`);
  return {
    route,
    access: Object.fromEntries(ROLE_COLUMNS.map((role, i) => [role, parts[i]])) as Record<Role, Access>,
  };
};

// One route per line, cells in the ROLE_COLUMNS order.
// prettier-ignore
export const ACCESS: readonly AccessRow[] = [
  //                                                                       admin dealer super player compl analyst
  row('POST /api/tables',                                                 'yes  no     no    no     no    no'),
  row('GET /api/tables',                                                  'yes  yes    yes   yes    yes   yes'),
  row('GET /api/tables/:tableId',                                         'yes  yes    yes   yes    yes   yes'),
  row('DELETE /api/tables/:tableId',                                      'yes  no     no    no     no    no'),
  row('POST /api/tables/:tableId/players/:playerId/buy-in',               'yes  no     no    no     no    no'),
  row('POST /api/tables/:tableId/players/:playerId/cash-out',             'yes  no     no    no     no    no'),
  row('POST /api/tables/:tableId/shoes',                                  'no   yes    yes   no     no    no'),
  row('POST /api/tables/:tableId/rounds',                                 'no   yes    yes   no     no    no'),
  row('POST /api/tables/:tableId/rounds/:roundNo/bets',                   'yes  yes    yes   own    no    no'),
  row('DELETE /api/tables/:tableId/rounds/:roundNo/bets/:playerId',       'yes  yes    yes   own    no    no'),
  row('POST /api/tables/:tableId/rounds/:roundNo/rebet',                  'yes  yes    yes   own    no    no'),
  row('POST /api/tables/:tableId/rounds/:roundNo/close',                  'no   yes    yes   no     no    no'),
  row('POST /api/tables/:tableId/rounds/:roundNo/deal',                   'no   yes    yes   own    no    no'),
  row('POST /api/tables/:tableId/rounds/:roundNo/cards',                  'no   yes    yes   no     no    no'),
  row('POST /api/tables/:tableId/rounds/:roundNo/confirm',                'no   yes    yes   no     no    no'),
  row('PUT /api/tables/:tableId/rounds/:roundNo/cards/:index',            'no   no     yes   no     no    no'),
  row('POST /api/tables/:tableId/rounds/:roundNo/void',                   'no   no     yes   no     no    no'),
  row('GET /api/tables/:tableId/hands',                                   'yes  yes    yes   own    yes   yes'),
  row('GET /api/tables/:tableId/hands/:roundNo',                          'yes  yes    yes   own    yes   yes'),
  row('GET /api/tables/:tableId/hands/:roundNo/replay',                   'yes  yes    yes   own    yes   yes'),
  row('GET /api/tables/:tableId/hands/:roundNo/verify',                   'yes  yes    yes   own    yes   yes'),
  row('GET /api/tables/:tableId/hands/:roundNo/odds',                     'yes  yes    yes   own    yes   yes'),
  row('GET /api/tables/:tableId/roads',                                   'yes  yes    yes   yes    yes   yes'),
  row('GET /api/stats',                                                   'yes  no     yes   no     yes   yes'),
  row('GET /api/stats/bets',                                              'yes  no     yes   no     yes   yes'),
  row('GET /api/edge/favourable',                                         'yes  yes    yes   no     yes   yes'),
  row('GET /api/edge/report',                                             'yes  no     yes   no     yes   yes'),
  row('GET /api/reports/hold',                                            'yes  no     yes   no     yes   yes'),
  row('GET /api/reports/bet-types',                                       'yes  no     yes   no     yes   yes'),
  row('GET /api/reports/dealer-pace',                                     'yes  no     yes   no     yes   yes'),
  row('GET /api/reports/player-rating',                                   'yes  no     yes   no     yes   yes'),
  row('GET /api/reports/anomalies',                                       'yes  no     yes   no     yes   yes'),
  row('GET /api/exports/:table',                                          'yes  no     no    no     yes   yes'),
  row('GET /api/players/:playerId/ledger',                                'yes  no     yes   own    yes   yes'),
  row('GET /api/projections',                                             'yes  no     yes   no     yes   yes'),
  row('POST /api/online/tables',                                          'no   no     no    yes    no    no'),
  row('POST /api/online/tables/:tableId/buy-in',                          'no   no     no    own    no    no'),
  row('POST /api/online/tables/:tableId/exit',                            'no   no     no    own    no    no'),
  row('POST /api/auth/sign-out',                                          'yes  yes    yes   no     yes   yes'),
  row('GET /api/staff',                                                   'yes  no     no    no     no    no'),
  row('POST /api/staff',                                                  'yes  no     no    no     no    no'),
  row('GET /api/staff/:username',                                         'yes  no     no    no     no    no'),
  row('PUT /api/staff/:username/roles',                                   'yes  no     no    no     no    no'),
  row('PUT /api/staff/:username/tables',                                  'yes  no     no    no     no    no'),
  row('POST /api/staff/:username/disable',                                'yes  no     no    no     no    no'),
  row('POST /api/staff/:username/enable',                                 'yes  no     no    no     no    no'),
  row('POST /api/staff/:username/password',                               'yes  no     no    no     no    no'),
];

/** The roles the route guard lets through on `route` (`yes` or `own`; `own` is checked again by the handler). */
export function rolesFor(route: string): Role[] {
  const found = ACCESS.find((r) => r.route === route);
  if (!found) throw new Error(`no access row for ${route}`);
  return ROLE_COLUMNS.filter((role) => found.access[role] !== 'no');
}
