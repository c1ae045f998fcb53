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
import { type GamingClock, ReadModels, clockOf, replayHand, verifyHand } from '@coup/projections';
import type { Principal } from '@coup/auth';
import { onlineTableId, tableStream } from '@coup/table';
import { rolesFor } from '../common/access';
import { CurrentPrincipal, Roles } from '../common/auth';
import { ApiError } from '../common/api-error';
import { wantsCsv } from './csv';
import { handAuditCsv, handsCsv, replayCsv, roadsCsv, verifyCsv } from './hands.csv';
import { ANALYTICS, type AnalyticsOptions } from './analytics.params';
import { handsQueryOf } from './hands.query';
import { queryOf, optionalInt, positiveInt, tableIdParam } from './params';
import { QUERIES_STORE, type QueriesStore, queryError, queryErrorAsync, sendCsv } from './shared';
import { ApiRefusals } from '../ops/openapi-errors';

/**
 * Staff and auditors read hand histories, replays and verifications; a player those of its own online table
 * (`online-<playerId>`): the `own` of the access matrix, checked here after the parameters (a malformed request is
 * a 400 for every caller, never a 403).
 */
export function mayReadHands(principal: Principal, tableId: string): void {
  if (principal.role === 'player' && tableId !== onlineTableId(principal.id)) {
    throw new ApiError(403, 'FORBIDDEN', 'a player reads only the hands of its own online table');
  }
}

const CSV_NOTE =
  'With `Accept: text/csv` the answer is CSV (RFC 4180), the next page cursor in the `X-Next-Cursor` header.';

@ApiTags('hand history')
@ApiBearerAuth()
@Controller('api/tables')
export class HandsController {
  /** The casino's gaming day, for the hand history's `gamingDay` filter. */
  private readonly clock: GamingClock;

  constructor(
    @Inject(ReadModels) private readonly read: ReadModels,
    @Inject(QUERIES_STORE) private readonly source: QueriesStore,
    @Inject(ANALYTICS) analytics: AnalyticsOptions,
  ) {
    this.clock = clockOf(analytics.gamingDay);
  }

  private async known(tableId: string): Promise<void> {
    if ((await this.read.table(tableId)) === null)
      throw new ApiError(404, 'UNKNOWN_TABLE', `no table ${tableId} in the read models`);
  }

  /**
   * As `known`, but a table the log has and the read models do not yet (they lag the log by up to
   * COUP_PROJECTION_COMMIT_MS, plus COUP_PROJECTION_POLL_MS in the worker thread on SQLite) is known: its hand history is empty so far, not missing.
   */
  private async knownOrRecorded(tableId: string): Promise<void> {
    if ((await this.read.table(tableId)) !== null) return;
    if ((await this.source.store.streamHead(tableStream(tableId))) !== null) return;
    await this.known(tableId);
  }

  @Get(':tableId/hands')
  @Roles(...rolesFor('GET /api/tables/:tableId/hands'))
  @ApiOperation({
    summary: 'Hand history of a table (newest first), filtered, with cursor pagination',
    description: CSV_NOTE,
  })
  @ApiParam({ name: 'tableId' })
  @ApiQuery({ name: 'shoe', required: false, type: Number, description: 'Only hands of this shoe' })
  @ApiQuery({
    name: 'roundFrom',
    required: false,
    type: Number,
    description: 'Lowest round number (inclusive)',
  })
  @ApiQuery({
    name: 'roundTo',
    required: false,
    type: Number,
    description: 'Highest round number (inclusive)',
  })
  @ApiQuery({
    name: 'from',
    required: false,
    description: 'Betting opened at or after (ISO date or instant)',
  })
  @ApiQuery({ name: 'to', required: false, description: 'Betting opened before (ISO date or instant)' })
  @ApiQuery({
    name: 'gamingDay',
    required: false,
    description: 'Betting opened in this gaming day, YYYY-MM-DD (COUP_GAMING_DAY); not with from/to',
  })
  @ApiQuery({ name: 'outcome', required: false, enum: ['player', 'banker', 'tie', 'void'] })
  @ApiQuery({ name: 'player', required: false, description: 'Hands where this player had stakes' })
  @ApiQuery({
    name: 'corrected',
    required: false,
    enum: ['true', 'false'],
    description:
      'true: hands with a card corrected (while dealt or after the coup settled); false: hands with none',
  })
  @ApiQuery({ name: 'order', required: false, enum: ['desc', 'asc'] })
  @ApiQuery({ name: 'cursor', required: false, description: 'nextCursor of the previous page' })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1..500, default 50' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description: '{ items: HandSummary[], nextCursor: string | null }',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'UNKNOWN_TABLE', 'STORE_UNAVAILABLE')
  async hands(
    @Param('tableId') tableId: string,
    @CurrentPrincipal() principal: Principal,
    @Query() query: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    tableIdParam(tableId);
    const { filter, page } = handsQueryOf(query, this.clock);
    // The whole query is checked before access: a malformed one is a 400 whoever asks.
    queryError(() => this.read.checkHandsQuery(filter, page));
    mayReadHands(principal, tableId);
    const result = await queryErrorAsync(() => this.read.hands(tableId, filter, page));
    if (result.items.length === 0 && page.cursor === undefined) await this.knownOrRecorded(tableId);
    return wantsCsv(request.headers.accept)
      ? sendCsv(reply, handsCsv(result.items), result.nextCursor)
      : result;
  }

  @Get(':tableId/hands/:roundNo')
  @Roles(...rolesFor('GET /api/tables/:tableId/hands/:roundNo'))
  @ApiOperation({
    summary:
      'One hand: every bet with who and when, every card with who entered it, result, settlements, void, event span and chain hashes',
    description:
      'With `Accept: text/csv`: the audit trail, one line per bet, clear, card, correction, settlement or returned stake.',
  })
  @ApiParam({ name: 'tableId' })
  @ApiParam({ name: 'roundNo', type: Number })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ description: 'HandRecord', schema: { type: 'object' } })
  @ApiRefusals('INVALID_QUERY', 'UNKNOWN_HAND')
  async hand(
    @Param('tableId') tableId: string,
    @CurrentPrincipal() principal: Principal,
    @Param('roundNo') roundNo: string,
    @Query() query: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    tableIdParam(tableId);
    const round = positiveInt(roundNo, 'roundNo');
    queryOf(query, []);
    mayReadHands(principal, tableId);
    const hand = await this.read.hand(tableId, round);
    if (!hand) throw new ApiError(404, 'UNKNOWN_HAND', `no hand ${round} at table ${tableId}`);
    if (!wantsCsv(request.headers.accept)) return hand;
    return sendCsv(reply, handAuditCsv(hand));
  }

  @Get(':tableId/hands/:roundNo/replay')
  @Roles(...rolesFor('GET /api/tables/:tableId/hands/:roundNo/replay'))
  @ApiOperation({
    summary:
      "A hand's events and the table after each, folded with the table decider's own evolve from the state before the hand",
    description:
      'Reads only the hand (its span in the table stream, found through the hand-history index). Unrevealed seeds are never shown. CSV: one line per event.',
  })
  @ApiParam({ name: 'tableId' })
  @ApiParam({ name: 'roundNo', type: Number })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description: '{ tableId, roundNo, shoeNo, status, before: TableView, steps: [{ event, view }] }',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'UNKNOWN_HAND', 'HAND_EVENTS_MISSING', 'STORE_UNAVAILABLE')
  async replay(
    @Param('tableId') tableId: string,
    @CurrentPrincipal() principal: Principal,
    @Param('roundNo') roundNo: string,
    @Query() query: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    tableIdParam(tableId);
    const round = positiveInt(roundNo, 'roundNo');
    queryOf(query, []);
    mayReadHands(principal, tableId);
    const r = await this.source.handle(() =>
      replayHand({ store: this.source.store, readModels: this.read }, tableId, round),
    );
    if (!wantsCsv(request.headers.accept)) return r;
    return sendCsv(reply, replayCsv(r));
  }

  @Get(':tableId/hands/:roundNo/verify')
  @Roles(...rolesFor('GET /api/tables/:tableId/hands/:roundNo/verify'))
  @ApiOperation({
    summary: 'Verifies a hand: named checks with pass/fail/pending/skipped',
    description:
      "index (the events are the hand's), chain (every hash recomputed and linked), coup (re-resolved by the engine from the recorded cards), " +
      'settlements (recomputed with settleBet), commitment and shuffle (rng tables once the seed is revealed: sha256(seed) equals the commitment; ' +
      "the seed's shuffle has the recorded cards at the recorded shoe positions). `ok` is false when any check fails; a failure names the event. CSV: one line per check.",
  })
  @ApiParam({ name: 'tableId' })
  @ApiParam({ name: 'roundNo', type: Number })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description: '{ tableId, roundNo, shoeNo, ok, checks: [{ name, status, detail, event? }] }',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'UNKNOWN_HAND', 'HAND_EVENTS_MISSING', 'STORE_UNAVAILABLE')
  async verify(
    @Param('tableId') tableId: string,
    @CurrentPrincipal() principal: Principal,
    @Param('roundNo') roundNo: string,
    @Query() query: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    tableIdParam(tableId);
    const round = positiveInt(roundNo, 'roundNo');
    queryOf(query, []);
    mayReadHands(principal, tableId);
    const v = await this.source.handle(() =>
      verifyHand({ store: this.source.store, readModels: this.read, raw: this.source.raw }, tableId, round),
    );
    if (!wantsCsv(request.headers.accept)) return v;
    return sendCsv(reply, verifyCsv(v));
  }

  @Get(':tableId/roads')
  @Roles(...rolesFor('GET /api/tables/:tableId/roads'))
  @ApiOperation({
    summary:
      'The roads of a shoe: bead plate, big road (ties, dragon tail), big eye boy, small road, cockroach pig',
    description:
      'Without `shoe`: the latest road. every-coup tables keep one road per UTC day (up to 80 coups); `shoe` finds the road holding it. CSV: one line per coup.',
  })
  @ApiParam({ name: 'tableId' })
  @ApiQuery({ name: 'shoe', required: false, type: Number })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description:
      'RoadsView: { shoeNo, outcomes, beadPlate, bigRoad, leadingTies, bigEyeBoy, smallRoad, cockroachPig, shoes }',
    schema: { type: 'object' },
  })
  @ApiRefusals('INVALID_QUERY', 'UNKNOWN_TABLE', 'UNKNOWN_SHOE')
  async roads(
    @Param('tableId') tableId: string,
    @Query() query: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    tableIdParam(tableId);
    const q = queryOf(query, ['shoe']);
    const shoe = optionalInt(q, 'shoe');
    const roads = await queryErrorAsync(() => this.read.roads(tableId, shoe));
    if (!roads) {
      await this.known(tableId);
      throw new ApiError(
        404,
        'UNKNOWN_SHOE',
        shoe === undefined ? `table ${tableId} has no shoe yet` : `no shoe ${shoe} at table ${tableId}`,
      );
    }
    if (!wantsCsv(request.headers.accept)) return roads;
    return sendCsv(reply, roadsCsv(roads));
  }
}
