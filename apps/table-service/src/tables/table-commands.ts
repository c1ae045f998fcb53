import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { tableView, type Actor, type TableCommand } from '@coup/table';
import { ApiError } from '../common/api-error';
import { ExecuteTableCommand } from './commands';
import { Clock, SeedSource } from './edge-inputs';
import { TableProcessor } from './table-processor';

export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export type CommandData<C extends TableCommand['type']> = Extract<TableCommand, { type: C }>['data'];

/** A path parameter that must be an id: 400 INVALID_PARAMETER otherwise. */
export function checkId(name: string, value: string): string {
  if (!ID_PATTERN.test(value))
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} must be 1 to 64 letters, digits, _ or -`);
  return value;
}

/** A round number path parameter. */
export function roundNo(value: string): number {
  if (!/^[1-9]\d{0,8}$/.test(value))
    throw new ApiError(400, 'INVALID_PARAMETER', 'roundNo must be a positive whole number');
  return Number(value);
}

function idempotencyKey(value: string | undefined): string | undefined {
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

  send<C extends TableCommand['type']>(
    tableId: string,
    type: C,
    data: CommandData<C>,
    actor: Actor,
    key?: string,
    correlationId?: string,
  ): Promise<unknown> {
    const command = {
      type,
      data,
      meta: { actor: { id: actor.id, role: actor.role }, at: this.clock.now() },
    } as TableCommand;
    return this.bus.execute(
      new ExecuteTableCommand(checkId('tableId', tableId), command, idempotencyKey(key), correlationId),
    );
  }

  /**
   * A fresh seed for a command that starts a shuffle on this table: StartShoe on rng tables, OpenBetting on rng
   * `every-coup` tables, and Deal on player-dealt rng tables (whose next coup's shoe starts at once).
   */
  async seedFor(tableId: string, command: 'StartShoe' | 'OpenBetting' | 'Deal'): Promise<string | undefined> {
    const rules = tableView(await this.tables.state(checkId('tableId', tableId))).rules;
    if (rules?.dealing !== 'rng') return undefined;
    const wanted =
      command === 'StartShoe' ||
      (command === 'OpenBetting' ? rules.shuffle === 'every-coup' : rules.dealtBy === 'player');
    return wanted ? this.seeds.next() : undefined;
  }
}
