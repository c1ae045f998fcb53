/**
 * The ledger's answer in the OpenAPI document, each field with its meaning (typed by the read side's wire types,
 * so a field added there must be documented here), and the same fields as the README's table.
 */
import type { OpenAPIObject } from '@nestjs/swagger';
import type { LedgerAccount, LedgerCounters, LedgerEntry, LedgerView } from '@coup/projections';

type Schema = Record<string, unknown>;
const cents = (description: string): Schema => ({ type: 'integer', description: `${description} (cents)` });
const count = (description: string): Schema => ({ type: 'integer', minimum: 0, description });
const text = (description: string, nullable = false): Schema => ({
  type: 'string',
  description,
  ...(nullable ? { nullable: true } : {}),
});

const COUNTERS: Readonly<Record<keyof LedgerCounters, Schema>> = {
  buyIns: count('buy-ins'),
  boughtIn: cents('cash turned into chips'),
  bets: count(
    'bets placed (rebets too), each counted once whatever became of it: settled, cleared or voided',
  ),
  staked: cents('their stakes'),
  cleared: cents('stakes given back by clearing bets'),
  voidedReturned: cents('stakes given back by voided rounds and voided settled coups'),
  wins: count(
    'settlements in force that won (a coup corrected after it settled counts as corrected, one voided not at all)',
  ),
  losses: count('settlements in force that lost'),
  pushes: count('settlements in force that pushed'),
  paid: cents('paid by the settlements in force, stakes included, less commission deducted'),
  netResult: cents(
    'what the player won over the settlements in force (negative: lost): paid less their stakes less box commission owed',
  ),
  commissionDeducted: cents('commission deducted from banker wins, on tables that deduct it'),
  commissionOwed: cents('box commission owed now: owed less collected'),
  commissionCollected: cents('box commission collected at cash-out'),
  cashOuts: count('cash-outs'),
  cashedOut: cents('cash paid at cash-out'),
  chips: cents(
    'chips at the table now: boughtIn - staked + cleared + voidedReturned + paid - commissionCollected - cashedOut',
  ),
};

const ACCOUNT: Readonly<Record<Exclude<keyof LedgerAccount, keyof LedgerCounters>, Schema>> = {
  tableId: text('the table'),
  firstAt: { ...text("the time of the player's first entry at the table"), format: 'date-time' },
};

const ENTRY: Readonly<Record<keyof LedgerEntry, Schema>> = {
  position: count("the event's position in the store's log"),
  seq: count('the entry within its event (a coup settles several bets)'),
  tableId: text('the table'),
  at: { ...text('when'), format: 'date-time' },
  kind: {
    type: 'string',
    enum: ['buy-in', 'bet', 'clear', 'settlement', 'reversal', 'void-return', 'cash-out'],
    description:
      'what happened; a reversal is a settlement taken back by a correction or void of the settled coup',
  },
  roundNo: {
    type: 'integer',
    minimum: 1,
    nullable: true,
    description: 'the round (null on buy-ins and cash-outs)',
  },
  spot: text('the spot of a bet or settlement', true),
  paytable: text("a side bet's paytable", true),
  amount: cents('bought in, staked, returned, paid, cashed out, or (a reversal) the paid it takes back'),
  chipsDelta: { type: 'integer', description: "the change to the player's chips at the table (cents)" },
  result: {
    type: 'string',
    enum: ['win', 'lose', 'push'],
    nullable: true,
    description: "a settlement's result (a reversal: the result it reverses)",
  },
  commission: cents(
    'commission deducted or owed by a settlement, taken back by a reversal, or collected at a cash-out',
  ),
  by: text('who did it (null on the settlements of a coup as dealt)', true),
  role: text('in which role', true),
  reason: text('why, as the supervisor gave it: a void, a correction of a settled coup', true),
};

const VIEW: Readonly<Record<keyof LedgerView, Schema>> = {
  playerId: text('the player'),
  accounts: {
    type: 'array',
    items: { $ref: '#/components/schemas/LedgerAccount' },
    description: 'one per table',
  },
  totals: {
    allOf: [{ $ref: '#/components/schemas/LedgerCounters' }],
    description: 'the counters summed over the accounts',
  },
  entries: {
    type: 'array',
    items: { $ref: '#/components/schemas/LedgerEntry' },
    description: 'a page of entries, oldest first; an entry is never changed',
  },
  nextCursor: text("the next page's cursor (null: no more)", true),
};

const object = (description: string, properties: Readonly<Record<string, Schema>>): Schema => ({
  type: 'object',
  description,
  required: Object.keys(properties),
  properties,
});

/** The ledger's schemas, by name. */
export const LEDGER_SCHEMAS: Readonly<Record<string, Schema>> = {
  LedgerView: object("A player's ledger (money in cents)", VIEW),
  LedgerCounters: object("A player's counters at a table, or summed over its tables (totals)", COUNTERS),
  LedgerAccount: {
    description: "The player's counters at one table",
    allOf: [{ $ref: '#/components/schemas/LedgerCounters' }, object('the table', ACCOUNT)],
  },
  LedgerEntry: object('One entry of the ledger', ENTRY),
};

export const LEDGER_PATH = '/api/players/{playerId}/ledger';
export const LEDGER_CSV_COLUMNS: readonly (keyof LedgerEntry)[] = Object.keys(ENTRY) as (keyof LedgerEntry)[];

/** The ledger route's answer typed with the schemas above (the document is changed in place and returned). */
export function documentLedger(doc: OpenAPIObject): OpenAPIObject {
  const ok = doc.paths[LEDGER_PATH]?.get?.responses?.['200'] as
    { content?: Record<string, unknown> } | undefined;
  if (!ok) throw new Error(`the OpenAPI document has no 200 answer of GET ${LEDGER_PATH}`);
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...LEDGER_SCHEMAS } };
  ok.content = {
    'application/json': { schema: { $ref: '#/components/schemas/LedgerView' } },
    'text/csv': {
      schema: { type: 'string', description: `the entries, one line each: ${LEDGER_CSV_COLUMNS.join(',')}` },
    },
  };
  return doc;
}

/** The ledger's fields as a Markdown table (the README holds it). */
export function ledgerFieldsMarkdown(): string {
  const rows: string[] = ['| in | field | type | meaning |', '| --- | --- | --- | --- |'];
  const section = (where: string, fields: Readonly<Record<string, Schema>>) => {
    for (const [name, s] of Object.entries(fields)) {
      const type = s['allOf'] ? 'object' : s['format'] === 'date-time' ? 'ISO instant' : String(s['type']);
      const values = (s['enum'] as readonly string[] | undefined)?.map((v) => `\`${v}\``).join(', ');
      const meaning = `${String(s['description'] ?? '')}${values ? `: ${values}` : ''}`;
      rows.push(`| ${where} | \`${name}\` | ${type}${s['nullable'] ? ' or null' : ''} | ${meaning} |`);
    }
  };
  section('the answer', VIEW);
  section('each account', ACCOUNT);
  section('each account, and the totals', COUNTERS);
  section('each entry', ENTRY);
  return rows.join('\n');
}
