import { Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@coup/auth';
import {
  ONLINE_CROUPIER,
  ONLINE_RULES,
  onlineCashier,
  onlineTableId,
  tableView,
  type Actor,
} from '@coup/table';
import { ApiError } from '../common/api-error';
import { CurrentPrincipal, Roles } from '../common/auth';
import type { Caller } from '../common/request-context';
import { AmountDto, ValidBody } from './dto';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency';
import { TableCommands } from './table-commands';
import { TableProcessor } from './table-processor';

/**
 * The system actors the online game uses on the player's behalf (recorded in the events as such). The decider
 * holds the personal table to its player and these actors (PERSONAL_TABLE).
 */
const cashier = (p: Principal): Actor => ({ id: onlineCashier(p.id), role: 'admin' });
const croupier: Actor = { id: ONLINE_CROUPIER, role: 'dealer' };

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
    if (tableId !== onlineTableId(p.id))
      throw new ApiError(403, 'FORBIDDEN', 'this is not your online table');
    const view = tableView((await this.tables.read(tableId)).state, { id: p.id, role: p.role });
    if (view.status === 'none')
      throw new ApiError(404, 'UNKNOWN_TABLE', `there is no table '${tableId}'; open it first`);
    return view;
  }

  @Post()
  @HttpCode(200)
  @Roles('player')
  @ApiOperation({
    summary: "Open (or resume) the caller's personal online table; betting is open when it answers",
  })
  async open(@CurrentPrincipal() p: Caller) {
    const tableId = onlineTableId(p.id);
    if (!/^[A-Za-z0-9_-]{1,57}$/.test(p.id))
      throw new ApiError(
        400,
        'INVALID_PARAMETER',
        'player ids for the online game are 1 to 57 of A-Z a-z 0-9 _ -',
      );
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
      const seed = await this.commands.seedFor(tableId, 'OpenBetting');
      await this.commands.send(
        tableId,
        'OpenBetting',
        seed ? { seed } : {},
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
  async buyIn(
    @Param('tableId') tableId: string,
    @ValidBody() body: AmountDto,
    @CurrentPrincipal() p: Caller,
    @Headers('idempotency-key') key?: string,
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
  async exit(
    @Param('tableId') tableId: string,
    @CurrentPrincipal() p: Caller,
    @Headers('idempotency-key') key?: string,
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
      if ((error as ApiError).code === 'UNKNOWN_PLAYER')
        throw new ApiError(409, 'NOT_SEATED', 'you have no chips on this table');
      if ((error as ApiError).code === 'BETS_IN_PLAY') {
        throw new ApiError(
          409,
          'COUP_INCOMPLETE',
          'a coup is incomplete: DEAL it or CLEAR your bets, then exit',
        );
      }
      throw error;
    }
  }
}
