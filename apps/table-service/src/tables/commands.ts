import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TableCommand } from '@coup/table';
import { TableProcessor } from './table-processor';

/**
 * The one CQRS command of the service: a table command, already mapped from its DTO and stamped with
 * the actor and the time. Its handler loads the table, decides, appends with the expected revision, and
 * answers (batched per table by the processor).
 */
export class ExecuteTableCommand extends Command<unknown> {
  constructor(
    readonly tableId: string,
    readonly command: TableCommand,
    readonly idempotencyKey: string | undefined,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(ExecuteTableCommand)
export class ExecuteTableCommandHandler implements ICommandHandler<ExecuteTableCommand> {
  constructor(private readonly tables: TableProcessor) {}

  execute({ tableId, command, idempotencyKey, correlationId }: ExecuteTableCommand): Promise<unknown> {
    return this.tables.execute(tableId, command, idempotencyKey, correlationId);
  }
}
