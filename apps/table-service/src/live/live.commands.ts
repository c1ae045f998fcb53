import { randomUUID } from 'node:crypto';
import { Logger, RequestMethod, type Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import type { Role } from '@coup/auth';
import { ApiError } from '../common/api-error';
import { ROLES_KEY, authorize } from '../common/auth';
import { toErrorBody } from '../common/exception.filter';
import { CoupValidationPipe } from '../common/validation';
import type { CommandLimit } from '../ops/request-limits';
import { FAST_BODY_CHECKS, PlaceBetDto, PlayerRefDto } from '../tables/dto';
import { checkPlayerId, roundNo, type TableCommands } from '../tables/table-commands';
import { TablesController } from '../tables/tables.controller';
import type { Client } from './live.clients';
import { MAX_COMMANDS_IN_FLIGHT } from './live.limits';
import type { CommandMessage, CommandType } from './live.protocol';
import type { LiveSender } from './live.send';

/** What a REST route answers: its status and body (a command's reply, or the error format). */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** The REST route a socket command stands for: its roles and its success status, read from the route itself. */
interface Route {
  readonly roles: readonly Role[] | undefined;
  readonly status: number;
}

function routeOf(handler: (...args: never[]) => unknown): Route {
  const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
  const code = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
  return {
    roles: Reflect.getMetadata(ROLES_KEY, handler) as Role[] | undefined,
    status: code ?? (method === RequestMethod.POST ? 201 : 200),
  };
}

const ROUTES: Readonly<Record<CommandType, Route>> = {
  bet: routeOf(TablesController.prototype.bet),
  clear: routeOf(TablesController.prototype.clear),
  rebet: routeOf(TablesController.prototype.rebet),
};

/** A field as a path parameter would hold it: text (a missing one is empty, and fails its check). */
const text = (value: unknown): string => (value === undefined ? '' : String(value));

/** The named fields that are present, as a JSON body would carry them. */
function bodyOf(
  fields: Readonly<Record<string, unknown>>,
  names: readonly string[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of names) if (Object.hasOwn(fields, name)) body[name] = fields[name];
  return body;
}

/**
 * Bets, clears and rebets sent over a live socket, each answered by `{ type: "ack", key, status, body }` with
 * what its REST route answers: the same command limits (the route's counters, for the socket's principal and
 * address), access checks (the route's roles, the token's tables), body validation (the route's DTO and pipe),
 * parameters, and the same command bus, decider and Idempotency-Key index. A retry with the same key (over the
 * socket, over REST, on another instance) gets the first accepted answer.
 */
export class LiveCommands {
  private readonly log = new Logger('live');
  private readonly pipe = new CoupValidationPipe(FAST_BODY_CHECKS);
  /** The REST routes' command limits (installed with the HTTP edge; none in tests without it). */
  limit: CommandLimit | null = null;

  /**
   * `holds`: whether the socket's token still holds (checked before each command; a socket whose token does not
   * is closed by it).
   */
  constructor(
    private readonly commands: TableCommands | null,
    private readonly sender: LiveSender,
    private readonly holds: (client: Client) => Promise<boolean> = async () => true,
  ) {}

  /** Runs one command and acks it when answered; never throws, never rejects. */
  run(client: Client, message: CommandMessage): void {
    if (client.commandsInFlight >= MAX_COMMANDS_IN_FLIGHT) {
      const error = new ApiError(
        429,
        'RATE_LIMITED',
        `at most ${MAX_COMMANDS_IN_FLIGHT} commands a socket may wait for at once; wait for their acks`,
      );
      return this.ack(client, message.key, { status: 429, body: toErrorBody(error) });
    }
    client.commandsInFlight++;
    const readAt = performance.now();
    void this.answer(client, message).then((answer) => {
      client.commandsInFlight--;
      this.ack(client, message.key, answer);
      this.sender.ackWritten(readAt);
    });
  }

  /** The route's answer to the command: its reply, or its error body. Never rejects. */
  async answer(client: Client, message: CommandMessage): Promise<Answer> {
    const route = ROUTES[message.type];
    const correlationId = randomUUID();
    try {
      const reply = await this.execute(client, message, route, correlationId);
      return { status: route.status, body: reply ?? null };
    } catch (error) {
      const body = toErrorBody(error, this.log, correlationId);
      if (body.statusCode >= 500)
        this.log.error({
          msg: 'live command failed',
          principal: client.principal.id,
          type: message.type,
          correlationId,
          error: String((error as Error)?.message ?? error),
          stack: (error as Error)?.stack,
        });
      return { status: body.statusCode, body };
    }
  }

  private ack(client: Client, key: string, answer: Answer): void {
    try {
      this.sender.send(client, { type: 'ack', key, status: answer.status, body: answer.body });
    } catch (error) {
      this.log.error({ msg: 'live ack failed', error: String(error) });
    }
  }

  /** The route's steps in its order: the token, limits, access, body, parameters, then the command. */
  private async execute(
    client: Client,
    message: CommandMessage,
    route: Route,
    correlationId: string,
  ): Promise<unknown> {
    if (!(await this.holds(client)))
      throw new ApiError(401, 'UNAUTHENTICATED', "this socket's token no longer holds: sign in again");
    if (!this.commands)
      throw new ApiError(503, 'UNAVAILABLE', 'this service takes no commands over the socket');
    const refused = this.limit ? await this.limit(client.address, client.principal) : null;
    if (refused) throw refused;
    const { fields, key } = message;
    const tableId = text(fields['tableId']);
    authorize(client.principal, route.roles, tableId);
    const actor = { id: client.principal.id, role: client.principal.role };
    const send = this.commands;
    switch (message.type) {
      case 'bet': {
        const body = await this.valid(PlaceBetDto, bodyOf(fields, ['playerId', 'spot', 'amount']));
        // The route's fields in the route's order (the key's request hash is over them).
        const round = roundNo(text(fields['roundNo']));
        const data = { roundNo: round, playerId: body.playerId, spot: body.spot, amount: body.amount };
        return send.send(tableId, 'PlaceBet', data, actor, key, correlationId);
      }
      case 'clear': {
        const data = {
          roundNo: roundNo(text(fields['roundNo'])),
          playerId: checkPlayerId(text(fields['playerId'])),
        };
        return send.send(tableId, 'ClearBets', data, actor, key, correlationId);
      }
      case 'rebet': {
        const body = await this.valid(PlayerRefDto, bodyOf(fields, ['playerId']));
        const data = { roundNo: roundNo(text(fields['roundNo'])), playerId: body.playerId };
        return send.send(tableId, 'Rebet', data, actor, key, correlationId);
      }
    }
  }

  /** The body as the route's validation pipe takes it (400 VALIDATION_FAILED otherwise). */
  private async valid<T extends object>(dto: Type<T>, body: Record<string, unknown>): Promise<T> {
    return (await this.pipe.transform(body, { type: 'body', metatype: dto })) as T;
  }
}
