import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  COMMAND_SEEDS,
  PLAYER_ID_PATTERN,
  TABLE_ID_PATTERN,
  tableView,
  type Actor,
  type CommandData,
  type CommandReply,
  type TableCommand,
  type TableCommandType,
  type TableRules,
} from '@coup/table';
import { ApiError } from '../common/api-error';
import { ExecuteTableCommand } from './commands';
import { Clock, SeedSource } from './edge-inputs';
import { TableProcessor } from './table-processor';

export type { CommandData };

/** The commands that carry a fresh shuffle seed (their seed fields are the decider's `COMMAND_SEEDS`). */
export type SeededCommand = 'StartShoe' | 'OpenBetting' | 'Deal';

/** A path parameter that must be an id: 400 INVALID_PARAMETER otherwise. */
export function checkId(name: string, value: string): string {
  if (!TABLE_ID_PATTERN.test(value))
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} must be 1 to 64 letters, digits, _ or -`);
  return value;
}

/** A player id path parameter (the decider's pattern): 400 INVALID_PARAMETER otherwise. */
export function checkPlayerId(value: string): string {
  if (!PLAYER_ID_PATTERN.test(value))
    throw new ApiError(
      400,
      'INVALID_PARAMETER',
      'playerId must be a player id: 1 to 64 letters, digits, _ . : @ + or -, the first a letter or digit',
    );
  return value;
}

/** A round number path parameter. */
export function roundNo(value: string): number {
  if (!/^[1-9]\d{0,8}$/.test(value))
    throw new ApiError(400, 'INVALID_PARAMETER', 'roundNo must be a positive whole number');
  return Number(value);
}

/** An Idempotency-Key header, checked: 400 INVALID_IDEMPOTENCY_KEY when it is not one. */
export function idempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,128}$/.test(value)) {
    throw new ApiError(
      400,
      'INVALID_IDEMPOTENCY_KEY',
      'Idempotency-Key must be 1 to 128 visible ASCII characters',
    );
  }
  return value;
}

/**
 * A player's answer carries only its own settlements: a coup it deals on a player-dealt table settles every
 * player's bets, which are each player's own (as the live push and the table view keep them). Replays of its
 * Idempotency-Key pass here too.
 */
function ownSettlements<R>(reply: R, playerId: string): R {
  const settlements = (reply as { settlements?: unknown } | null)?.settlements;
  if (!Array.isArray(settlements)) return reply;
  return {
    ...reply,
    settlements: settlements.filter((s: { playerId?: unknown }) => s.playerId === playerId),
  };
}

/**
 * Turns a request into a table command (stamped at the edge with the actor and the time) and sends it on the
 * CQRS command bus; also supplies fresh CSPRNG seeds to the commands that start a shuffle.
 */
@Injectable()
export class TableCommands {
  constructor(
    private readonly bus: CommandBus,
    private readonly tables: TableProcessor,
    private readonly clock: Clock,
    private readonly seeds: SeedSource,
  ) {}

  /** Sends a command; resolves with its answer (the decider's reply for its type) or rejects with an ApiError. */
  send<C extends TableCommandType>(
    tableId: string,
    type: C,
    data: CommandData<C>,
    actor: Actor,
    key?: string,
    correlationId?: string,
  ): Promise<CommandReply<C>> {
    const command = {
      type,
      data,
      meta: { actor: { id: actor.id, role: actor.role }, at: this.clock.now() },
    } as TableCommand;
    // The processor answers with the decider's reply for the command (or its first answer under the key).
    const reply = this.bus.execute(
      new ExecuteTableCommand(checkId('tableId', tableId), command, idempotencyKey(key), correlationId),
    ) as Promise<CommandReply<C>>;
    return actor.role === 'player' ? reply.then((r) => ownSettlements(r, actor.id)) : reply;
  }

  /**
   * The seed fields (`COMMAND_SEEDS`) of a command that starts a shuffle on this table, each with a fresh seed, or
   * none when the table's rules shuffle no shoe with it (`shufflesWith`).
   */
  async seedsFor<C extends SeededCommand>(tableId: string, command: C): Promise<Partial<CommandData<C>>> {
    const rules = tableView(await this.tables.state(checkId('tableId', tableId))).rules;
    if (!rules || !shufflesWith(rules, command)) return {};
    return Object.fromEntries(COMMAND_SEEDS[command].map((field) => [field, this.seeds.next()])) as Partial<
      CommandData<C>
    >;
  }
}

/**
 * Does this command start a shuffle on a table with these rules? StartShoe on rng tables, OpenBetting on rng
 * `every-coup` tables, and Deal on player-dealt rng tables (whose next coup's shoe starts at once).
 */
export function shufflesWith(rules: TableRules, command: SeededCommand): boolean {
  if (rules.dealing !== 'rng') return false;
  if (command === 'StartShoe') return true;
  return command === 'OpenBetting' ? rules.shuffle === 'every-coup' : rules.dealtBy === 'player';
}
