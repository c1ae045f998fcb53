import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '@coup/auth';
import { type LedgerEntry, ReadModels, type StatsSummary } from '@coup/projections';
import { rolesFor } from '../common/access';
import { CurrentPrincipal, Roles } from '../common/auth';
import { ApiError } from '../common/api-error';
import { ANALYTICS, type AnalyticsOptions, csvAsked } from './analytics.params';
import { type Cell, toCsv, wantsCsv } from './csv';
import { optionalInt, playerIdParam, queryOf, tableIdParam } from './params';
import { ProjectionsStatus } from './projections-status';
import { TABLES_NOTE, forCaller, queryErrorAsync, sendCsv } from './shared';
import { ApiStatsFilters, STATS_DAYS, statsOptions, statsQuery } from './stats.params';
import { ApiRefusals } from '../ops/openapi-errors';

type StatsLine = StatsSummary & { scope: string; key: string };

const pct = (v: number | null | undefined): Cell =>
  v === null || v === undefined ? null : Number(v.toFixed(6));

const STATS_COLUMNS: { name: string; value: (s: StatsLine) => Cell }[] = [
  { name: 'scope', value: (s) => s.scope },
  { name: 'key', value: (s) => s.key },
  { name: 'coups', value: (s) => s.coups },
  { name: 'voids', value: (s) => s.voids },
  { name: 'player', value: (s) => s.outcomes.player },
  { name: 'banker', value: (s) => s.outcomes.banker },
  { name: 'tie', value: (s) => s.outcomes.tie },
  { name: 'playerFrequency', value: (s) => pct(s.frequencies?.player) },
  { name: 'bankerFrequency', value: (s) => pct(s.frequencies?.banker) },
  { name: 'tieFrequency', value: (s) => pct(s.frequencies?.tie) },
  { name: 'playerExpected', value: (s) => pct(s.expected?.player) },
  { name: 'bankerExpected', value: (s) => pct(s.expected?.banker) },
  { name: 'tieExpected', value: (s) => pct(s.expected?.tie) },
  { name: 'chiSquare', value: (s) => pct(s.chiSquare?.statistic) },
  { name: 'pValue', value: (s) => pct(s.chiSquare?.pValue) },
  { name: 'naturals', value: (s) => s.naturals.count },
  { name: 'naturalFrequency', value: (s) => pct(s.naturals.frequency) },
  { name: 'naturalExpected', value: (s) => pct(s.naturals.expected) },
  { name: 'handlePlayer', value: (s) => s.handle.player },
  { name: 'handleBanker', value: (s) => s.handle.banker },
  { name: 'handleTie', value: (s) => s.handle.tie },
  { name: 'handle', value: (s) => s.handle.total },
  { name: 'paid', value: (s) => s.paid },
  { name: 'commission', value: (s) => s.commission },
  { name: 'houseResult', value: (s) => s.houseResult },
  { name: 'holdPercent', value: (s) => pct(s.holdPercent) },
  { name: 'theoreticalEdgePercent', value: (s) => pct(s.theoreticalEdgePercent) },
];

const ENTRY_COLUMNS: { name: string; value: (e: LedgerEntry) => Cell }[] = (
  [
    'position',
    'seq',
    'tableId',
    'at',
    'kind',
    'roundNo',
    'spot',
    'paytable',
    'amount',
    'chipsDelta',
    'result',
    'commission',
    'by',
    'role',
    'reason',
  ] as const
).map((name) => ({ name, value: (e: LedgerEntry) => e[name] }));

@ApiTags('reports')
@ApiBearerAuth()
@Controller('api')
export class ReportsController {
  constructor(
    @Inject(ReadModels) private readonly read: ReadModels,
    @Inject(ProjectionsStatus) private readonly projectionsStatus: ProjectionsStatus,
    @Inject(ANALYTICS) private readonly analytics: AnalyticsOptions,
  ) {}

  @Get('stats')
  @Roles(...rolesFor('GET /api/stats'))
  @ApiOperation({
    summary:
      'Statistics: coups, outcome frequencies beside the exact odds for the decks, chi-square, naturals, handle, paid, commission, house result, hold beside the edge',
    description:
      `Per table, per day and overall (and per shoe with a tableId). ${STATS_DAYS} ` +
      'The chi-square statistic tests the outcome counts against the exact probabilities (2 degrees of freedom; p-value exp(-x/2)). ' +
      `${TABLES_NOTE} ` +
      'With `Accept: text/csv` or `format=csv`: one line per scope (overall, table, day, shoe).',
  })
  @ApiStatsFilters()
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description:
      "{ filter, overall: StatsSummary, tables: [...], days: [...], shoes: [{ shoeNo, firstDay, ... }] } (by gaming day: filter.calendar 'gaming', days and firstDay gaming days, a shoe's coups those of the filter)",
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'INVALID_PARAMETER', 'FORBIDDEN')
  async stats(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const { filter, q } = statsQuery(query);
    const scoped = forCaller(principal, filter);
    const stats = await queryErrorAsync(() => this.read.stats(scoped, statsOptions(this.analytics)));
    if (!csvAsked(q, wantsCsv(request.headers.accept))) return stats;
    const lines: StatsLine[] = [
      { scope: 'overall', key: '', ...stats.overall },
      ...stats.tables.map((t) => ({ ...t, scope: 'table', key: t.tableId })),
      ...stats.days.map((d) => ({ ...d, scope: 'day', key: d.day })),
      ...stats.shoes.map((s) => ({ ...s, scope: 'shoe', key: String(s.shoeNo) })),
    ];
    return sendCsv(reply, toCsv(STATS_COLUMNS, lines));
  }

  @Get('players/:playerId/ledger')
  // A player reads only its own ledger (checked in the handler).
  @Roles(...rolesFor('GET /api/players/:playerId/ledger'))
  @ApiOperation({
    summary:
      "A player's ledger: per table buy-ins, bets, results, commission owed and collected, cash-outs; and the entries (oldest first, paged)",
    description:
      'A `player` token reads only its own ledger (403 otherwise); a token limited to some tables, only their accounts and entries (another `tableId`: 403). Each account (per table) and the totals: buyIns, boughtIn, bets and staked (every bet placed, whatever became of it), cleared, voidedReturned, wins, losses, pushes and paid (the settlements in force), netResult (paid - stakes - box commission owed), commissionDeducted, commissionOwed, commissionCollected, cashOuts, cashedOut, chips. Each entry: kind (buy-in, bet, clear, settlement, reversal, void-return, cash-out), amount, chipsDelta, who (by, role) and why (reason: a void, a correction of a settled coup). With `Accept: text/csv`: the entries (columns position, seq, tableId, at, kind, roundNo, spot, paytable, amount, chipsDelta, result, commission, by, role, reason), the next cursor in `X-Next-Cursor`.',
  })
  @ApiParam({ name: 'playerId' })
  @ApiQuery({ name: 'tableId', required: false })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1..500, default 50' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description:
      '{ playerId, accounts: [{ tableId, firstAt, ...counters }], totals, entries: [...], nextCursor }',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'FORBIDDEN')
  async ledger(
    @Param('playerId') playerId: string,
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    playerIdParam(playerId);
    const q = queryOf(query, ['tableId', 'cursor', 'limit']);
    if (q['tableId'] !== undefined) tableIdParam(q['tableId']);
    const limit = optionalInt(q, 'limit');
    if (principal.role === 'player' && principal.id !== playerId) {
      throw new ApiError(403, 'FORBIDDEN', 'a player may read only its own ledger');
    }
    const scoped = forCaller(principal, { tableId: q['tableId'], cursor: q['cursor'], limit });
    const ledger = await queryErrorAsync(() => this.read.ledger(playerId, scoped));
    if (!wantsCsv(request.headers.accept)) return ledger;
    return sendCsv(reply, toCsv(ENTRY_COLUMNS, ledger.entries), ledger.nextCursor);
  }

  @Get('projections')
  @Roles(...rolesFor('GET /api/projections'))
  @ApiOperation({ summary: "Each projection's checkpoint and lag (events not yet in the read models)" })
  @ApiOkResponse({
    description:
      '{ running, lastError, readModels (sqlite or postgres), foldedBy (this thread, a worker thread, another process), projections: [{ name, version, checkpoint, head, lag, lagIsLowerBound, updatedAt, rebuiltAt }] }, from the checkpoints in the read models the queries read',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY')
  projections(@Query() query: unknown): Promise<unknown> {
    queryOf(query, []);
    return this.projectionsStatus.status();
  }
}
