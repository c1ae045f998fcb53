/**
 * The analysts' reports over the an_ tables (libs/projections/src/reports): hold per table, gaming day, shift and
 * dealer, per bet type, dealer pace, player rating, hold anomalies. JSON, or CSV with `?format=csv` or
 * `Accept: text/csv`. Each filters by gaming day(s), UTC instants, shift, local hour, table and dealer; a token
 * limited to some tables reads only theirs.
 */
import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type GroupedReport,
  ReadModels,
  type Report,
  type ReportOptions,
  anomalyReport,
  betTypeReport,
  holdReport,
  paceReport,
  ratingReport,
} from '@coup/projections';
import { rolesFor } from '../common/access';
import type { Principal } from '@coup/auth';
import { CurrentPrincipal, Roles } from '../common/auth';
import { ApiRefusals } from '../ops/openapi-errors';
import { ANOMALY_COLUMNS, PACE_COLUMNS, RATING_COLUMNS, groupedColumns } from './analytics.csv';
import {
  ANALYTICS,
  type AnalyticsOptions,
  type ReportQuery,
  csvAsked,
  flagOf,
  groupByOf,
  reportQuery,
  scopeOf,
} from './analytics.params';
import { type Cell, toCsv, wantsCsv } from './csv';
import { TABLES_NOTE, forCaller, queryErrorAsync, sendCsv } from './shared';

/** The filter parameters, for the OpenAPI document. */
function ApiReportFilters(): MethodDecorator {
  const params: [string, string][] = [
    ['gamingDay', 'One gaming day, YYYY-MM-DD (COUP_GAMING_DAY: cut-over time and time zone)'],
    ['from', 'First gaming day, YYYY-MM-DD'],
    ['to', 'Last gaming day, YYYY-MM-DD (inclusive)'],
    ['since', 'UTC instant (ISO-8601): facts at or after it'],
    ['until', 'UTC instant (ISO-8601): facts before it'],
    ['shift', 'A shift of COUP_SHIFTS'],
    ['hour', 'Local hour in the gaming day’s time zone, 0 to 23'],
    ['tableId', `One table. ${TABLES_NOTE}`],
    ['dealer', "A dealer's actor id"],
    [
      'limit',
      'Most rows, 1 to 100,000 (default 10,000); `truncated` (X-Truncated) says when there were more',
    ],
    ['format', 'csv or json (default: json, or CSV with Accept: text/csv)'],
  ];
  return (target, key, descriptor) => {
    for (const [name, description] of params)
      ApiQuery({ name, required: false, description })(target, key, descriptor);
  };
}

const GROUP_BY = (dims: string, fallback: string): MethodDecorator =>
  ApiQuery({
    name: 'groupBy',
    required: false,
    description: `Dimensions separated by commas, of ${dims}; empty: one row over everything (default ${fallback})`,
  });

@ApiTags('reports')
@ApiBearerAuth()
@Controller('api/reports')
export class AnalyticsController {
  constructor(
    @Inject(ReadModels) private readonly read: ReadModels,
    @Inject(ANALYTICS) private readonly analytics: AnalyticsOptions,
  ) {}

  /** The report's options: the caller's filter (a token limited to some tables reads only theirs). */
  private options(r: ReportQuery, principal: Principal): ReportOptions {
    const shifts = this.analytics.gamingDay.shifts.map((s) => s.name);
    return { filter: forCaller(principal, r.filter), limit: r.limit, shifts };
  }

  /** The report as JSON, or its rows as CSV. */
  private answer<R extends object, A extends Report<R>>(
    report: A,
    r: ReportQuery,
    request: FastifyRequest,
    reply: FastifyReply,
    columns: readonly { name: string; value: (row: R) => Cell }[],
  ): unknown {
    if (!csvAsked(r.q, wantsCsv(request.headers.accept))) return report;
    if (report.truncated) void reply.header('x-truncated', 'true');
    return sendCsv(reply, toCsv(columns, report.rows));
  }

  /** A report grouped by `groupBy` (hold, or hold per bet type). */
  private async grouped(
    kind: 'hold' | 'betTypes',
    query: unknown,
    principal: Principal,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<unknown> {
    const r = reportQuery(query, ['groupBy']);
    const options = { ...this.options(r, principal), groupBy: groupByOf(r.q) };
    const report: GroupedReport<object> = await queryErrorAsync<GroupedReport<object>>(() =>
      kind === 'hold' ? holdReport(this.read.sql, options) : betTypeReport(this.read.sql, options),
    );
    return this.answer(report, r, request, reply, groupedColumns(kind, report.groupBy));
  }

  @Get('hold')
  @Roles(...rolesFor('GET /api/reports/hold'))
  @ApiOperation({
    summary:
      'Hold per table, gaming day, shift and dealer: coups, drop, cash paid out, handle, actual win, hold % of the drop and of the handle, theoretical win, commission, voids and corrections',
    description:
      'From the analysts’ star schema (docs/analyst-schema.md; the view an_report_hold). Money in cents; actual win = stakes - paid + box commission; theoretical win = stake x the exact house edge of the bet type. Voided coups count only as voids.',
  })
  @ApiReportFilters()
  @GROUP_BY('table, gamingDay, shift, hour, dealer', 'table,gamingDay,shift,dealer')
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description: '{ filter, groupBy, rows: HoldRow[], truncated }',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'INVALID_PARAMETER', 'FORBIDDEN')
  async hold(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.grouped('hold', query, principal, request, reply);
  }

  @Get('bet-types')
  @Roles(...rolesFor('GET /api/reports/bet-types'))
  @ApiOperation({
    summary:
      'Hold per bet type, table, gaming day, shift and dealer: coups and stakes, handle, paid, actual win and hold %, theoretical win and its % (the exact edge), commission, stakes voided and corrected',
    description:
      'The view an_report_bet_types. A bet type is a spot and what it pays (e.g. banker:commission, tie:8-to-1, super6:15-to-1).',
  })
  @ApiReportFilters()
  @GROUP_BY('table, gamingDay, shift, hour, dealer, betType', 'table,gamingDay,shift,dealer,betType')
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description: '{ filter, groupBy, rows: BetTypeRow[], truncated }',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'INVALID_PARAMETER', 'FORBIDDEN')
  async betTypes(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.grouped('betTypes', query, principal, request, reply);
  }

  @Get('dealer-pace')
  @Roles(...rolesFor('GET /api/reports/dealer-pace'))
  @ApiOperation({
    summary: 'Dealer pace per table, gaming day, shift and dealer: coups dealt and coups per hour',
    description:
      'The view an_report_dealer_pace: hours from the first round’s opening to the last coup’s result; voided coups count (they were dealt).',
  })
  @ApiReportFilters()
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ description: '{ filter, rows: PaceRow[], truncated }', schema: { type: 'object' } })
  @ApiRefusals('INVALID_QUERY', 'INVALID_PARAMETER', 'FORBIDDEN')
  async pace(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const r = reportQuery(query);
    const report = await queryErrorAsync(() => paceReport(this.read.sql, this.options(r, principal)));
    return this.answer(report, r, request, reply, PACE_COLUMNS);
  }

  @Get('player-rating')
  @Roles(...rolesFor('GET /api/reports/player-rating'))
  @ApiOperation({
    summary:
      'Player rating per player, table and gaming day: coups, handle, average bet per coup, actual and theoretical win, minutes played',
    description: 'The view an_report_player_rating.',
  })
  @ApiReportFilters()
  @ApiQuery({ name: 'playerId', required: false })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ description: '{ filter, rows: RatingRow[], truncated }', schema: { type: 'object' } })
  @ApiRefusals('INVALID_QUERY', 'INVALID_PARAMETER', 'FORBIDDEN')
  async rating(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const r = reportQuery(query, ['playerId']);
    const report = await queryErrorAsync(() => ratingReport(this.read.sql, this.options(r, principal)));
    return this.answer(report, r, request, reply, RATING_COLUMNS);
  }

  @Get('anomalies')
  @Roles(...rolesFor('GET /api/reports/anomalies'))
  @ApiOperation({
    summary:
      'Hold anomalies per table-day and player-day: actual against theoretical win in standard deviations (z), flagged past COUP_ANOMALY_Z',
    description:
      'The view an_report_anomalies: z = (win - theoWin) / sqrt(theoVar), the variance from the exact odds of each bet type (stakes on one bet type in a coup move together). `scope` table or player (default both; a playerId leaves tables out), `flagged=true` only the flagged rows.',
  })
  @ApiReportFilters()
  @ApiQuery({ name: 'playerId', required: false })
  @ApiQuery({ name: 'scope', required: false, enum: ['table', 'player'] })
  @ApiQuery({ name: 'flagged', required: false, enum: ['true', 'false'] })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description: '{ filter, threshold, rows: AnomalyRow[], truncated }',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'INVALID_PARAMETER', 'FORBIDDEN')
  async anomalies(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const r = reportQuery(query, ['playerId', 'scope', 'flagged']);
    const [scope, flaggedOnly] = [scopeOf(r.q), flagOf(r.q, 'flagged')];
    const report = await queryErrorAsync(() =>
      anomalyReport(this.read.sql, {
        ...this.options(r, principal),
        threshold: this.analytics.anomalyZ,
        scope,
        flaggedOnly,
      }),
    );
    return this.answer(report, r, request, reply, ANOMALY_COLUMNS);
  }
}
