/**
 * Issue 15's read side: statistics per bet type (side bets included), the remaining-shoe edge monitor's "favourable
 * now" and analyst report, and the odds of each bet before any hand.
 */
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
import {
  type BetTypeStats,
  type EdgeAlert,
  type EdgeNowView,
  ReadModels,
  oddsBeforeHand,
} from '@coup/projections';
import { rolesFor } from '../common/access';
import { CurrentPrincipal, Roles, mayUseTable } from '../common/auth';
import { ANALYTICS, type AnalyticsOptions, csvAsked } from './analytics.params';
import { type Cell, toCsv, wantsCsv } from './csv';
import { mayReadHands } from './hands.controller';
import { optionalInt, positiveInt, queryOf, tableIdParam } from './params';
import { QUERIES_STORE, type QueriesStore, TABLES_NOTE, forCaller, queryErrorAsync, sendCsv } from './shared';
import { ApiStatsFilters, STATS_DAYS, statsOptions, statsQuery } from './stats.params';
import { ApiRefusals } from '../ops/openapi-errors';

type BetLine = BetTypeStats & { scope: string; key: string };

const num = (v: number | null | undefined): Cell =>
  v === null || v === undefined ? null : Number(v.toFixed(6));

const BET_COLUMNS: { name: string; value: (b: BetLine) => Cell }[] = [
  { name: 'scope', value: (b) => b.scope },
  { name: 'key', value: (b) => b.key },
  { name: 'spot', value: (b) => b.spot },
  { name: 'variant', value: (b) => b.variant },
  { name: 'coups', value: (b) => b.coups },
  { name: 'results', value: (b) => b.results.map((r) => `${r.key}=${r.count}`).join(' ') },
  { name: 'frequencies', value: (b) => b.results.map((r) => `${r.key}=${num(r.frequency) ?? ''}`).join(' ') },
  { name: 'expected', value: (b) => b.results.map((r) => `${r.key}=${num(r.expected) ?? ''}`).join(' ') },
  {
    name: 'ci95',
    value: (b) =>
      b.results.map((r) => `${r.key}=${num(r.ci95?.low) ?? ''}..${num(r.ci95?.high) ?? ''}`).join(' '),
  },
  { name: 'bets', value: (b) => b.bets },
  { name: 'handle', value: (b) => b.handle },
  { name: 'paid', value: (b) => b.paid },
  { name: 'houseResult', value: (b) => b.houseResult },
  { name: 'holdPercent', value: (b) => num(b.holdPercent) },
  { name: 'theoreticalEdgePercent', value: (b) => num(b.theoreticalEdgePercent) },
];

const ALERT_COLUMNS: { name: string; value: (a: EdgeAlert) => Cell }[] = [
  ...(
    ['tableId', 'roundNo', 'shoeNo', 'coupInShoe', 'cardsLeft', 'spot', 'paytable', 'ev', 'evExact'] as const
  ).map((name) => ({ name, value: (a: EdgeAlert) => a[name] })),
  { name: 'openedAt', value: (a) => a.openedAt },
  { name: 'staked', value: (a) => a.wagered.staked },
  { name: 'paid', value: (a) => a.wagered.paid },
  { name: 'net', value: (a) => a.wagered.net },
  { name: 'players', value: (a) => a.players.map((p) => `${p.playerId}=${p.staked}`).join(' ') },
];

/** The tables a token limited to some tables may see of `view` (dealers and supervisors may be limited). */
function visible(principal: Principal, view: EdgeNowView): EdgeNowView {
  return { tables: view.tables.filter((t) => mayUseTable(principal, t.tableId)) };
}

@ApiTags('reports')
@ApiBearerAuth()
@Controller('api')
export class EdgeController {
  constructor(
    @Inject(ReadModels) private readonly read: ReadModels,
    @Inject(QUERIES_STORE) private readonly source: QueriesStore,
    @Inject(ANALYTICS) private readonly analytics: AnalyticsOptions,
  ) {}

  @Get('stats/bets')
  @Roles(...rolesFor('GET /api/stats/bets'))
  @ApiOperation({
    summary:
      'Statistics per bet type (every spot offered, side bets included): each result beside its exact probability with a Wilson 95% interval, hold beside the theoretical edge',
    description:
      `Overall, per table (with its decks, game mode and tie payout) and per day. ${STATS_DAYS} A bet type is a spot and what sets its payouts ` +
      "(a side bet's paytable, the banker bet's game mode, the tie's payout). Each result ('win:<num>/<den>[:commission]', 'push', 'lose') is counted over the coups " +
      "the bet was offered in, whether or not anyone bet it; `expected` is its exact probability for the rows' rules (weighted by coups), `ci95` the Wilson score interval. " +
      `${TABLES_NOTE} ` +
      'With `Accept: text/csv` or `format=csv`: one line per scope and bet type.',
  })
  @ApiStatsFilters()
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description:
      "{ filter, confidence: 'wilson-95', overall: { bets: BetTypeStats[], total }, tables: [{ tableId, decks, game, tiePays, bets, total }], days: [{ day, bets, total }] } (by gaming day: filter.calendar 'gaming', days gaming days)",
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'INVALID_PARAMETER', 'FORBIDDEN')
  async betStats(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const { filter, q } = statsQuery(query);
    const scoped = forCaller(principal, filter);
    const stats = await queryErrorAsync(() => this.read.betStats(scoped, statsOptions(this.analytics)));
    if (!csvAsked(q, wantsCsv(request.headers.accept))) return stats;
    const lines: BetLine[] = [
      ...stats.overall.bets.map((b) => ({ ...b, scope: 'overall', key: '' })),
      ...stats.tables.flatMap((t) => t.bets.map((b) => ({ ...b, scope: 'table', key: t.tableId }))),
      ...stats.days.flatMap((d) => d.bets.map((b) => ({ ...b, scope: 'day', key: d.day }))),
    ];
    return sendCsv(reply, toCsv(BET_COLUMNS, lines));
  }

  @Get('edge/favourable')
  @Roles(...rolesFor('GET /api/edge/favourable'))
  @ApiOperation({
    summary: 'Surveillance: the bets that favour the player now, given the cards left in each shoe',
    description:
      "Every monitored table (a shoe game offering side bets) where a bet has a positive exact expected value for the next round, with every offered bet's value; " +
      "with `tableId`, that table's values whatever they are (no table: not monitored). A token limited to some tables sees only those.",
  })
  @ApiQuery({ name: 'tableId', required: false })
  @ApiOkResponse({
    description:
      '{ tables: [{ tableId, shoeNo, roundNo, coupInShoe, cardsSeen, cardsLeft, computedAt, position, favourable: [...], values: [{ spot, paytable, ev, evExact, win, push, lose }] }] }',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'INVALID_PARAMETER', 'FORBIDDEN')
  async favourable(@Query() query: unknown, @CurrentPrincipal() principal: Principal): Promise<EdgeNowView> {
    const q = queryOf(query, ['tableId']);
    const { tableId } = forCaller(principal, {
      tableId: q['tableId'] === undefined ? undefined : tableIdParam(q['tableId']),
    });
    return visible(principal, await queryErrorAsync(() => this.read.edgeNow(tableId)));
  }

  @Get('edge/report')
  @Roles(...rolesFor('GET /api/edge/report'))
  @ApiOperation({
    summary:
      'Surveillance report: every bet that favoured the player when a round opened, and what each player staked on it in that round',
    description:
      'Alerts oldest first (paged: `cursor`, `limit` 1..500), each with the exact value, the shoe, the coup and the stakes settled on the bet per player with their results; ' +
      "`totals` and `players` cover every alert of the filter. `from`/`to`: UTC days of the round's opening. With `Accept: text/csv`: one line per alert, the next cursor in `X-Next-Cursor`. " +
      TABLES_NOTE,
  })
  @ApiQuery({ name: 'tableId', required: false })
  @ApiQuery({ name: 'from', required: false, description: 'First UTC day, YYYY-MM-DD' })
  @ApiQuery({ name: 'to', required: false, description: 'Last UTC day, YYYY-MM-DD' })
  @ApiQuery({ name: 'spot', required: false, description: 'Only this bet, e.g. dragon7' })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1..500, default 50' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description:
      '{ filter, alerts: [{ tableId, roundNo, shoeNo, coupInShoe, cardsSeen, cardsLeft, spot, paytable, ev, evExact, winProbability, computedAt, openedAt, position, wagered, players }], nextCursor, totals, players }',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'INVALID_PARAMETER', 'FORBIDDEN')
  async report(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const q = queryOf(query, ['tableId', 'from', 'to', 'spot', 'cursor', 'limit']);
    if (q['tableId'] !== undefined) tableIdParam(q['tableId']);
    const limit = optionalInt(q, 'limit');
    const filter = forCaller(principal, {
      tableId: q['tableId'],
      from: q['from'],
      to: q['to'],
      spot: q['spot'],
    });
    const report = await queryErrorAsync(() => this.read.edgeReport(filter, { cursor: q['cursor'], limit }));
    if (!wantsCsv(request.headers.accept)) return report;
    return sendCsv(reply, toCsv(ALERT_COLUMNS, report.alerts), report.nextCursor);
  }

  @Get('tables/:tableId/hands/:roundNo/odds')
  @Roles(...rolesFor('GET /api/tables/:tableId/hands/:roundNo/odds'))
  @ApiOperation({
    summary:
      "The odds of each bet before a hand: every bet the table offers, valued exactly on the cards not seen in the hand's shoe",
    description:
      "The cards seen before the hand (the turned card and every card dealt in the shoe's earlier rounds, voided ones included) leave the shoe; " +
      'each offered bet gets its probabilities, each way it can end, its exact expected value and whether it favoured the player. `odds` is null when no shoe was in play. ' +
      'Reads the shoe from its start to the hand (one bounded read of the table stream).',
  })
  @ApiParam({ name: 'tableId' })
  @ApiParam({ name: 'roundNo', type: Number })
  @ApiOkResponse({
    description:
      '{ tableId, roundNo, shoeNo, odds: { shoeNo, roundNo, coupInShoe, cardsSeen, cardsLeft, game, tiePays, remaining, bets: [{ spot, label, paytable, ev, evExact, houseEdge, favourable, probabilities, results }] } | null }',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'UNKNOWN_HAND', 'HAND_EVENTS_MISSING', 'STORE_UNAVAILABLE')
  odds(
    @Param('tableId') tableId: string,
    @Param('roundNo') roundNo: string,
    @CurrentPrincipal() principal: Principal,
    @Query() query: unknown,
  ): Promise<unknown> {
    tableIdParam(tableId);
    const round = positiveInt(roundNo, 'roundNo');
    queryOf(query, []);
    mayReadHands(principal, tableId);
    return this.source.handle(() =>
      oddsBeforeHand({ store: this.source.store, readModels: this.read }, tableId, round),
    );
  }
}
