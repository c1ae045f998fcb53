/**
 * The API's own page (issue 16): the OpenAPI document lists every operation's error answers, each status with the
 * stable codes it can carry, all in one ErrorResponse schema; every code it lists is one the service has, and
 * every code the service has appears in it. The ledger's answer is typed field by field, as the service answers
 * it, and the README's table of its fields is the document's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { ANY_REQUEST_CODES, ERROR_CODES } from '../src/ops/error-catalogue';
import { ERROR_SCHEMA, ERROR_SCHEMA_REF } from '../src/ops/openapi-errors';
import { LEDGER_CSV_COLUMNS, LEDGER_SCHEMAS, ledgerFieldsMarkdown } from '../src/ops/openapi-ledger';
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);

interface ErrorContent {
  readonly schema?: {
    readonly allOf?: readonly [
      { readonly $ref?: string },
      { readonly properties: { statusCode: { enum: number[] }; code: { enum: string[] } } },
    ];
  };
}
interface Response {
  readonly description: string;
  readonly content?: Record<string, ErrorContent>;
}
interface Operation {
  readonly responses: Record<string, Response>;
}
interface Schema {
  readonly required?: readonly string[];
  readonly properties: Record<string, { readonly anyOf?: readonly { readonly enum?: readonly string[] }[] }>;
}
interface Doc {
  readonly info: { readonly description: string };
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components: { readonly schemas: Record<string, Schema> };
}

let h: Harness;
let doc: Doc;
beforeAll(async () => {
  h = await startService();
  doc = (await h.api('GET', '/docs/openapi.json', { token: null })).body as Doc;
});
afterAll(async () => {
  await h.close();
});

/** Every operation's error answers: `METHOD /path` -> status -> its codes. */
function documented(): Map<string, Map<number, string[]>> {
  const ops = new Map<string, Map<number, string[]>>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      const statuses = new Map<number, string[]>();
      for (const [status, response] of Object.entries(op.responses)) {
        const narrowed = response.content?.['application/json']?.schema?.allOf?.[1];
        if (narrowed) statuses.set(Number(status), narrowed.properties.code.enum);
      }
      ops.set(`${method.toUpperCase()} ${path}`, statuses);
    }
  return ops;
}

it('gives every operation its error answers, each status in the ErrorResponse schema with its codes', () => {
  const problems: string[] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      const name = `${method.toUpperCase()} ${path}`;
      const errors = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      if (!errors.some(([status]) => status === '500')) problems.push(`${name}: no 500`);
      for (const [status, response] of errors) {
        // /health answers 503 with its own body (which follower is down), not an error.
        if (name === 'GET /health' && status === '503') continue;
        const [ref, narrowed] = response.content?.['application/json']?.schema?.allOf ?? [];
        if (ref?.$ref !== ERROR_SCHEMA_REF || !narrowed) {
          problems.push(`${name} ${status}: not an ErrorResponse`);
          continue;
        }
        expect(narrowed.properties.statusCode.enum).toEqual([Number(status)]);
        const codes = narrowed.properties.code.enum;
        if (codes.length === 0) problems.push(`${name} ${status}: no codes`);
        for (const code of codes) {
          if (ERROR_CODES[code]?.status !== Number(status)) problems.push(`${name} ${status}: ${code}`);
          if (!response.description.includes(`\`${code}\``))
            problems.push(`${name} ${status}: ${code} unexplained`);
        }
      }
    }
  expect(problems).toEqual([]);
});

it('lists every code the service answers: on an operation, or among those any request may get', () => {
  const listed = new Set([...documented().values()].flatMap((s) => [...s.values()].flat()));
  const unlisted = Object.keys(ERROR_CODES).filter(
    (code) => !listed.has(code) && !ANY_REQUEST_CODES.includes(code as never),
  );
  expect(unlisted).toEqual([]);
  for (const code of ANY_REQUEST_CODES) expect(doc.info.description).toContain(`\`${code}\``);
  const schema = doc.components.schemas[ERROR_SCHEMA];
  expect(schema?.required).toEqual(['statusCode', 'code', 'message']);
  expect(Object.keys(schema!.properties)).toEqual([
    'statusCode',
    'code',
    'message',
    'details',
    'correlationId',
  ]);
  expect([...(schema!.properties['code']!.anyOf?.[0]?.enum ?? [])].sort()).toEqual(
    Object.keys(ERROR_CODES).sort(),
  );
});

it("lists a command's codes from the decider and the edge, by status", () => {
  const bet = documented().get('POST /api/tables/{tableId}/rounds/{roundNo}/bets')!;
  expect(bet.get(400)).toEqual(
    expect.arrayContaining(['VALIDATION_FAILED', 'INVALID_PARAMETER', 'BET_LIMIT', 'SPOT_NOT_OFFERED']),
  );
  expect(bet.get(401)).toEqual(['UNAUTHENTICATED']);
  expect(bet.get(403)).toEqual(['FORBIDDEN', 'PERSONAL_TABLE']);
  expect(bet.get(409)).toEqual(
    expect.arrayContaining(['BETTING_CLOSED', 'WRONG_ROUND', 'INSUFFICIENT_CHIPS', 'ROUND_FULL']),
  );
  expect(bet.get(422)).toEqual(
    expect.arrayContaining(['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_EXPIRED', 'APPEND_TOO_LARGE']),
  );
  expect(bet.get(429)).toEqual(['RATE_LIMITED', 'TOO_MANY_AUTH_FAILURES']);
  // A player's exit answers the cash-out's refusals as a player reads them.
  const exit = documented().get('POST /api/online/tables/{tableId}/exit')!;
  expect(exit.get(409)).toEqual(expect.arrayContaining(['NOT_SEATED', 'COUP_INCOMPLETE']));
  expect([...exit.values()].flat()).not.toContain('BETS_IN_PLAY');
  // A read takes no Idempotency-Key, nor refuses one; a public route no token.
  const list = documented().get('GET /api/tables')!;
  expect([...list.values()].flat()).not.toContain('IDEMPOTENCY_KEY_REUSED');
  expect((doc.paths['/api/tables']!['get'] as { parameters?: unknown[] }).parameters ?? []).toEqual([]);
  expect([...documented().get('GET /api/auth/options')!.values()].flat()).toEqual(['INTERNAL_ERROR']);
});

it('answers a refusal the document lists for its operation', async () => {
  await h.api('POST', '/api/tables', { body: { tableId: 'DOCERR' } });
  const r = await h.api('POST', '/api/tables/DOCERR/rounds/1/bets', {
    token: h.token('dealer'),
    body: { playerId: 'p1', spot: 'banker', amount: 500 },
  });
  expect(r.body).toMatchObject({ statusCode: 409, code: 'BETTING_CLOSED' });
  expect(documented().get('POST /api/tables/{tableId}/rounds/{roundNo}/bets')!.get(409)).toContain(
    r.body.code,
  );
});

/** Waits until every read model has folded the store's last event. */
async function readSideCaughtUp(): Promise<void> {
  const head = Number((await h.app.get(EventStoreHandle).store.headPosition()) ?? -1n);
  for (let i = 0; i < 400; i++) {
    const status = (await h.api('GET', '/api/projections')).body as { projections: { checkpoint: number }[] };
    if (status.projections.every((p) => p.checkpoint >= head)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the read side did not reach position ${head}`);
}

it("types the ledger's answer field by field, as the service answers it, and the README lists each field", async () => {
  const dealer = { token: h.token('dealer') };
  await h.api('POST', '/api/tables', { body: { tableId: 'DOCLEDGER' } });
  await h.api('POST', '/api/tables/DOCLEDGER/players/p1/buy-in', { body: { amount: 10_000 } });
  await h.api('POST', '/api/tables/DOCLEDGER/shoes', dealer);
  await h.api('POST', '/api/tables/DOCLEDGER/rounds', dealer);
  await h.api('POST', '/api/tables/DOCLEDGER/rounds/1/bets', {
    ...dealer,
    body: { playerId: 'p1', spot: 'banker', amount: 500 },
  });
  await h.api('POST', '/api/tables/DOCLEDGER/rounds/1/close', dealer);
  expect((await h.api('POST', '/api/tables/DOCLEDGER/rounds/1/deal', dealer)).status).toBe(200);
  await readSideCaughtUp();
  const ledger = (await h.api('GET', '/api/players/p1/ledger')).body;
  const fields = (name: string) => Object.keys(LEDGER_SCHEMAS[name]!['properties'] as object);
  const account = LEDGER_SCHEMAS['LedgerAccount']!['allOf'] as { properties?: object }[];
  expect(Object.keys(ledger).sort()).toEqual(fields('LedgerView').sort());
  expect(Object.keys(ledger.totals).sort()).toEqual(fields('LedgerCounters').sort());
  expect(Object.keys(ledger.accounts[0]).sort()).toEqual(
    [...fields('LedgerCounters'), ...Object.keys(account[1]!.properties!)].sort(),
  );
  expect(ledger.entries.map((e: { kind: string }) => e.kind)).toEqual(['buy-in', 'bet', 'settlement']);
  for (const entry of ledger.entries) expect(Object.keys(entry).sort()).toEqual(fields('LedgerEntry').sort());
  const csv = await fetch(`${h.url}/api/players/p1/ledger`, {
    headers: { authorization: `Bearer ${h.token('admin')}`, accept: 'text/csv' },
  });
  expect((await csv.text()).split('\r\n')[0]).toBe(LEDGER_CSV_COLUMNS.join(','));
  const op = doc.paths['/api/players/{playerId}/ledger']!['get']!.responses['200']!.content!;
  expect(op['application/json']!.schema).toEqual({ $ref: '#/components/schemas/LedgerView' });
  for (const name of Object.keys(LEDGER_SCHEMAS))
    expect(doc.components.schemas[name]).toEqual(LEDGER_SCHEMAS[name]);
  // The README's table between its markers (Prettier aligns its columns: compared with spaces and dashes collapsed).
  const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('<!-- ledger-fields:start -->') + '<!-- ledger-fields:start -->'.length,
    readme.indexOf('<!-- ledger-fields:end -->'),
  );
  const normal = (md: string) => md.replace(/-{3,}/g, '---').replace(/\s+/g, ' ').trim();
  expect(normal(section)).toBe(normal(ledgerFieldsMarkdown()));
});
