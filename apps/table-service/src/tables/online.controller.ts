import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@coup/auth';
import { ONLINE_RULES, onlineTableId, tableView } from '@coup/table';
import { ApiError } from '../common/api-error';
import { CurrentPrincipal, Roles } from '../common/auth';
import { IdempotencyKey } from '../common/idempotency-key';
import type { Caller } from '../common/request-context';
import { AmountDto, ValidBody } from './dto';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency';
import { ApiRefusals, ApiSends } from '../ops/openapi-errors';
import { cashier, checkOnlinePlayer, checkOwnTable, croupier, exitRefusal, openedTableView } from './online';
import { TableCommands } from './table-commands';
import { TableProcessor } from './table-processor';

/**
 * The online single-player game on the same backend: each player gets a personal table (created on first visit,
 * resumed after), buys chips into it, plays with DEAL, and exits with a cash-out, which is refused while one of
 * its coups is incomplete (bets on the layout): finish the coup or clear the bets first.
 */
@ApiTags('online')
@ApiBearerAuth()
@ApiHeader(IDEMPOTENCY_KEY_HEADER)
@Controller('api/online/tables')
export class OnlineController {
  constructor(
    private readonly commands: TableCommands,
    private readonly tables: TableProcessor,
  ) {}

  private async own(tableId: string, p: Principal): Promise<ReturnType<typeof tableView>> {
    checkOwnTable(tableId, p);
    return openedTableView(tableId, p, (await this.tables.read(tableId)).state);
  }

  @Post()
  @HttpCode(200)
  @Roles('player')
  @ApiOperation({
    summary: "Open (or resume) the caller's personal online table; betting is open when it answers",
  })
  @ApiSends(['OpenTable', 'OpenBetting'])
  @ApiRefusals('INVALID_PARAMETER')
  async open(@CurrentPrincipal() p: Caller) {
    const tableId = onlineTableId(p.id);
    checkOnlinePlayer(p.id);
    let view = tableView((await this.tables.read(tableId)).state);
    if (view.status === 'closed')
      throw new ApiError(409, 'TABLE_CLOSED', 'your online table was closed by the casino');
    if (view.status === 'none') {
      await this.commands.send(
        tableId,
        'OpenTable',
        { tableId, rules: ONLINE_RULES },
        cashier(p),
        `online-open-${tableId}`,
        p.correlationId,
      );
      view = tableView(await this.tables.state(tableId));
    }
    if (view.phase === 'idle' || view.phase === 'ready') {
      // Keyed by the round it opens, so two tabs opening at once open one round and both get its answer.
      await this.commands.send(
        tableId,
        'OpenBetting',
        await this.commands.seedsFor(tableId, 'OpenBetting'),
        croupier,
        `online-round-${tableId}-${view.roundNo + 1}`,
        p.correlationId,
      );
    }
    const { state, revision } = await this.tables.read(tableId);
    return { tableId, revision: Number(revision), view: tableView(state, { id: p.id, role: p.role }) };
  }

  @Post(':tableId/buy-in')
  @HttpCode(200)
  @Roles('player')
  @ApiOperation({ summary: 'Buy chips on your online table (cents)' })
  @ApiSends('BuyIn')
  async buyIn(
    @Param('tableId') tableId: string,
    @ValidBody() body: AmountDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    await this.own(tableId, p);
    return this.commands.send(
      tableId,
      'BuyIn',
      { playerId: p.id, amount: body.amount },
      cashier(p),
      key,
      p.correlationId,
    );
  }

  @Post(':tableId/exit')
  @HttpCode(200)
  @Roles('player')
  @ApiOperation({
    summary: 'Leave the game: cash out, refused while a coup is incomplete (bets on the layout)',
  })
  @ApiSends('CashOut', { UNKNOWN_PLAYER: 'NOT_SEATED', BETS_IN_PLAY: 'COUP_INCOMPLETE' })
  async exit(
    @Param('tableId') tableId: string,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ) {
    await this.own(tableId, p);
    try {
      // Decided on the table as the store has it (a keyed retry gets the first cash-out's answer).
      return await this.commands.send(
        tableId,
        'CashOut',
        { playerId: p.id },
        cashier(p),
        key,
        p.correlationId,
      );
    } catch (error) {
      throw exitRefusal(error);
    }
  }
}
