/** OpenTable (admin): makes the table with its rules (any subset of TableRules, defaults for the rest). */
import { type Command, type CommandSpec, type Ctx, Refusal, by, describe, refuse } from '../../kernel';
import { normalizeRules } from '../../rules';
import { TABLE_ID_PATTERN, type TableRules, personalTableOwner } from '../../vocabulary';
import { find } from '../../kernel';

export type OpenTable = Command<'OpenTable', { readonly tableId: string; readonly rules?: unknown }>;
type Parsed = { readonly tableId: string; readonly rules: TableRules };

export const openTable: CommandSpec<'OpenTable', Parsed, { tableId: string; rules: TableRules }> = {
  type: 'OpenTable',
  roles: ['admin'],
  fields: ['tableId', 'rules'],
  seeds: [],
  actsForPlayer: false,
  closedTable: false,
  personal: null,
  opensTable: true,
  parse(data) {
    const tableId = data['tableId'];
    if (typeof tableId !== 'string' || !TABLE_ID_PATTERN.test(tableId)) {
      return refuse(
        'INVALID_TABLE_ID',
        `tableId must be 1 to 64 characters of A-Z a-z 0-9 _ -, got ${describe(tableId)}`,
        {
          field: 'tableId',
        },
      );
    }
    const rules = normalizeRules(data['rules']);
    return rules.ok ? { tableId, rules: rules.value } : new Refusal(rules.error);
  },
  decide({ tableId, rules }, ctx: Ctx) {
    const owner = personalTableOwner(tableId);
    if (owner !== null && rules.dealtBy !== 'player') {
      return refuse(
        'PERSONAL_TABLE',
        `${tableId} would be ${owner}'s own online table: it must be player-dealt`,
        {
          tableId,
          owner,
        },
      );
    }
    if (ctx.state.phase !== 'none') {
      return refuse('TABLE_EXISTS', `Table ${ctx.state.tableId ?? tableId} already exists`, {
        tableId: ctx.state.tableId,
      });
    }
    return [{ type: 'TableOpened', data: { tableId, rules, ...by(ctx) } }];
  },
  reply(events) {
    const d = find(events, 'TableOpened');
    return d && { tableId: d.tableId, rules: d.rules };
  },
};
