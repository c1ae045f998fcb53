import { Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { normalizeRules, tableView, type TableCommandType } from '@coup/table';
import { ApiError } from '../common/api-error';
import { CurrentPrincipal, maySeeTable, Roles } from '../common/auth';
import { IdempotencyKey } from '../common/idempotency-key';
import type { Caller } from '../common/request-context';
import { checkId, checkPlayerId, roundNo, TableCommands, type CommandData } from './table-commands';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency';
import {
  AmountDto,
  CardDto,
  CorrectCardDto,
  CreateTableDto,
  PlaceBetDto,
  PlayerRefDto,
  StartShoeDto,
  ValidBody,
  VoidDto,
} from './dto';
import { ApiRefusals, ApiSends } from '../ops/openapi-errors';
import { TABLE_READ_CODES } from '../ops/error-catalogue';
import { TableCatalog } from './table-catalog';
import { TableProcessor } from './table-processor';

const DEALERS = ['dealer', 'supervisor'] as const;
const BETTORS = ['player', 'dealer', 'supervisor', 'admin'] as const;
const READERS = ['admin', 'dealer', 'supervisor', 'player', 'compliance', 'analyst'] as const;

@ApiTags('tables')
@ApiBearerAuth()
@ApiHeader(IDEMPOTENCY_KEY_HEADER)
@Controller('api/tables')
export class TablesController {
  constructor(
    private readonly commands: TableCommands,
    private readonly tables: TableProcessor,
    private readonly catalog: TableCatalog,
  ) {}

  private run<C extends TableCommandType>(
    tableId: string,
    type: C,
    data: CommandData<C>,
    principal: Caller,
    key: string | undefined,
  ) {
    return this.commands.send(
      tableId,
      type,
      data,
      { id: principal.id, role: principal.role },
      key,
      principal.correlationId,
    );
  }

  @Post()
  @Roles('admin')
  @ApiOperation({
    summary:
      'Open a table with its rules: game mode (commission, no-commission, ez) and the side bets it offers',
  })
  @ApiSends('OpenTable')
  create(@ValidBody() body: CreateTableDto, @CurrentPrincipal() p: Caller, @IdempotencyKey() key?: string) {
    // Refused here before the table is loaded; the decider normalizes the rules as sent (normalized rules are not
    // input: they carry the commission rule, which a non-commission game refuses).
    const rules = normalizeRules(body.rules ?? {});
    if (!rules.ok) throw new ApiError(400, rules.error.code, rules.error.message, rules.error.details);
    return this.run(body.tableId, 'OpenTable', { tableId: body.tableId, rules: body.rules ?? {} }, p, key);
  }

  @Get()
  @Roles(...READERS)
  @ApiOperation({
    summary:
      "List the tables (those the token may use; a player never sees another player's own online table)",
  })
  list(@CurrentPrincipal() p: Caller) {
    return this.catalog.list().filter((t) => maySeeTable(p, t.tableId));
  }

  @Get(':tableId')
  @Roles(...READERS)
  @ApiOperation({ summary: 'The table as it stands now (a player sees only its own bets and chips)' })
  @ApiRefusals('UNKNOWN_TABLE', ...TABLE_READ_CODES)
  async view(@Param('tableId') tableId: string, @CurrentPrincipal() p: Caller) {
    const { state, revision } = await this.tables.read(checkId('tableId', tableId));
    const view = tableView(state, { id: p.id, role: p.role });
    if (view.status === 'none') throw new ApiError(404, 'UNKNOWN_TABLE', `there is no table '${tableId}'`);
    // The stream revision this view reflects: a live client compares it with the last event it saw.
    return { ...view, revision: Number(revision) };
  }

  @Delete(':tableId')
  @Roles('admin')
  @ApiOperation({
    summary: 'Close the table (between rounds only)',
    description:
      'Refused with 409 PLAYERS_SEATED while players hold chips, unless cashOutAll=true: every player is then cashed out first (box commission collected), each recorded; at most 500 at once (a command is one append of the store): past that, also 409 PLAYERS_SEATED (details.cashOutAllMax), and the pit cashes players out first.',
  })
  @ApiQuery({ name: 'cashOutAll', required: false, enum: ['true', 'false'] })
  @ApiSends('CloseTable')
  close(
    @Param('tableId') tableId: string,
    @CurrentPrincipal() p: Caller,
    @Query() query: unknown,
    @IdempotencyKey() key?: string,
  ) {
    const cashOutAll = (query as Record<string, unknown> | undefined)?.['cashOutAll'];
    if (cashOutAll !== undefined && cashOutAll !== 'true' && cashOutAll !== 'false') {
      throw new ApiError(
        400,
        'INVALID_COMMAND',
        `cashOutAll must be true or false, got '${String(cashOutAll).slice(0, 40)}'`,
      );
    }
    return this.run(tableId, 'CloseTable', cashOutAll === 'true' ? { cashOutAll: true } : {}, p, key);
  }

  @Post(':tableId/players/:playerId/buy-in')
  @HttpCode(200)
  @Roles('admin')
  @ApiOperation({ summary: 'Seat a player and change cash into chips' })
  @ApiSends('BuyIn')
  buyIn(
    @Param('tableId') tableId: string,
    @Param('playerId') playerId: string,
    @ValidBody() body: AmountDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    return this.run(tableId, 'BuyIn', { playerId: checkPlayerId(playerId), amount: body.amount }, p, key);
  }

  @Post(':tableId/players/:playerId/cash-out')
  @HttpCode(200)
  @Roles('admin')
  @ApiOperation({ summary: 'Cash a player out: commission owed is collected from the chips first' })
  @ApiSends('CashOut')
  cashOut(
    @Param('tableId') tableId: string,
    @Param('playerId') playerId: string,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    return this.run(tableId, 'CashOut', { playerId: checkPlayerId(playerId) }, p, key);
  }

  @Post(':tableId/shoes')
  @Roles(...DEALERS)
  @ApiOperation({
    summary:
      'Start a new shoe (rng: shuffled from a fresh seed, commitment published; live: the turned first card)',
  })
  @ApiSends('StartShoe')
  async startShoe(
    @Param('tableId') tableId: string,
    @ValidBody() body: StartShoeDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    const seeds = await this.commands.seedsFor(tableId, 'StartShoe');
    return this.run(
      tableId,
      'StartShoe',
      { ...seeds, ...(body.firstCard !== undefined ? { firstCard: body.firstCard } : {}) },
      p,
      key,
    );
  }

  @Post(':tableId/rounds')
  @Roles(...DEALERS)
  @ApiOperation({ summary: 'Open betting for the next round' })
  @ApiSends('OpenBetting')
  async openRound(
    @Param('tableId') tableId: string,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    return this.run(tableId, 'OpenBetting', await this.commands.seedsFor(tableId, 'OpenBetting'), p, key);
  }

  @Post(':tableId/rounds/:roundNo/bets')
  @Roles(...BETTORS)
  @ApiOperation({ summary: 'Place a bet on player, banker, tie or a side bet the table offers' })
  @ApiSends('PlaceBet')
  bet(
    @Param('tableId') tableId: string,
    @Param('roundNo') round: string,
    @ValidBody() body: PlaceBetDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    return this.run(
      tableId,
      'PlaceBet',
      { roundNo: roundNo(round), playerId: body.playerId, spot: body.spot, amount: body.amount },
      p,
      key,
    );
  }

  @Delete(':tableId/rounds/:roundNo/bets/:playerId')
  @Roles(...BETTORS)
  @ApiOperation({ summary: "Clear a player's bets of this round" })
  @ApiSends('ClearBets')
  clear(
    @Param('tableId') tableId: string,
    @Param('roundNo') round: string,
    @Param('playerId') playerId: string,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    return this.run(
      tableId,
      'ClearBets',
      { roundNo: roundNo(round), playerId: checkPlayerId(playerId) },
      p,
      key,
    );
  }

  @Post(':tableId/rounds/:roundNo/rebet')
  @Roles(...BETTORS)
  @ApiOperation({
    summary: "Repeat the player's bets of its last round, side bets included (all or nothing)",
  })
  @ApiSends('Rebet')
  rebet(
    @Param('tableId') tableId: string,
    @Param('roundNo') round: string,
    @ValidBody() body: PlayerRefDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    return this.run(tableId, 'Rebet', { roundNo: roundNo(round), playerId: body.playerId }, p, key);
  }

  @Post(':tableId/rounds/:roundNo/close')
  @HttpCode(200)
  @Roles(...DEALERS)
  @ApiOperation({ summary: 'No more bets' })
  @ApiSends('CloseBetting')
  closeBetting(
    @Param('tableId') tableId: string,
    @Param('roundNo') round: string,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    return this.run(tableId, 'CloseBetting', { roundNo: roundNo(round) }, p, key);
  }

  @Post(':tableId/rounds/:roundNo/deal')
  @HttpCode(200)
  @Roles('dealer', 'supervisor', 'player')
  @ApiOperation({
    summary: 'rng tables: deal the whole coup and settle every bet (a player deals on its own online table)',
  })
  @ApiSends('Deal')
  async deal(
    @Param('tableId') tableId: string,
    @Param('roundNo') round: string,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    const seeds = await this.commands.seedsFor(tableId, 'Deal');
    return this.run(tableId, 'Deal', { roundNo: roundNo(round), ...seeds }, p, key);
  }

  @Post(':tableId/rounds/:roundNo/confirm')
  @HttpCode(200)
  @Roles('dealer', 'supervisor')
  @ApiOperation({
    summary: 'Live tables with the rule confirmResult: settle the coup, complete and shown',
    description: 'Until then a mis-entered card is corrected as before the coup resolved.',
  })
  @ApiSends('ConfirmResult')
  confirm(
    @Param('tableId') tableId: string,
    @Param('roundNo') round: string,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    return this.run(tableId, 'ConfirmResult', { roundNo: roundNo(round) }, p, key);
  }

  @Post(':tableId/rounds/:roundNo/cards')
  @HttpCode(200)
  @Roles(...DEALERS)
  @ApiOperation({
    summary: 'Live tables: one dealt card; the answer says where the next goes, or the result',
  })
  @ApiSends('DealCard')
  card(
    @Param('tableId') tableId: string,
    @Param('roundNo') round: string,
    @ValidBody() body: CardDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    return this.run(tableId, 'DealCard', { roundNo: roundNo(round), card: body.card }, p, key);
  }

  @Put(':tableId/rounds/:roundNo/cards/:index')
  @Roles('supervisor')
  @ApiOperation({
    summary: 'Live tables, supervisor: correct a mis-entered card',
    description:
      'Before the coup resolves; or, with a reason, the coup just settled, until the next betting opens (or the table rule correctionSeconds): its settlement is reversed and the coup settled anew (409 CORRECTION_WINDOW_CLOSED after).',
  })
  @ApiSends('CorrectCard')
  correct(
    @Param('tableId') tableId: string,
    @Param('roundNo') round: string,
    @Param('index') index: string,
    @ValidBody() body: CorrectCardDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    if (!/^[0-5]$/.test(index))
      throw new ApiError(400, 'INVALID_PARAMETER', 'index must be 0 to 5 (dealing order)');
    return this.run(
      tableId,
      'CorrectCard',
      {
        roundNo: roundNo(round),
        index: Number(index),
        card: body.card,
        ...(body.reason === undefined ? {} : { reason: body.reason }),
      },
      p,
      key,
    );
  }

  @Post(':tableId/rounds/:roundNo/void')
  @HttpCode(200)
  @Roles('supervisor')
  @ApiOperation({
    summary: 'Supervisor: void the round; every bet is returned, the cards stay on record',
    description:
      'Also the coup just settled, until the next betting opens (or the table rule correctionSeconds): its settlement is reversed and every stake returned.',
  })
  @ApiSends('VoidRound')
  void(
    @Param('tableId') tableId: string,
    @Param('roundNo') round: string,
    @ValidBody() body: VoidDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    return this.run(tableId, 'VoidRound', { roundNo: roundNo(round), reason: body.reason }, p, key);
  }
}
