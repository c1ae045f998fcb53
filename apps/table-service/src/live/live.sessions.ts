import { Logger } from '@nestjs/common';
import { TokenError, type TokenVerifier } from '@coup/auth';
import { toErrorBody } from '../common/exception.filter';
import type { Client, LiveClients } from './live.clients';
import { CLOSE, type LiveSender } from './live.send';

/** The staff directory's catch-up: when it resolves, every staff event recorded before the call is folded. */
export interface StaffFolder {
  fresh(): Promise<void>;
}

/** The longest delay a Node timer takes (about 24.8 days); a later expiry is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A live socket holds only while its token does, not just when it connects: the token is checked again before
 * each subscribe and command (a staff sign-in's after folding the staff stream, as an HTTP request's is), when
 * its account changes (a staff event about it, recorded by any process, reaches the live feed), and when it
 * expires (a timer per socket at `exp`). A socket whose token no longer holds gets a 401 error frame and is closed
 * with 4401 and the token's code as the reason (`TOKEN_REVOKED`, `TOKEN_EXPIRED`).
 */
export class LiveSessions {
  private readonly log = new Logger('live');

  constructor(
    private readonly tokens: TokenVerifier,
    private readonly staff: StaffFolder | null,
    private readonly clients: LiveClients,
    private readonly sender: LiveSender,
  ) {}

  /** A socket just admitted: it is closed when its token expires. */
  watch(client: Client): void {
    if (client.expiresAt === null || client.gone) return;
    const ms = client.expiresAt * 1000 - Date.now();
    const timer = setTimeout(() => this.expire(client), Math.min(Math.max(ms, 0), MAX_TIMER_MS));
    timer.unref();
    client.expiryTimer = timer;
  }

  /** Whether the socket's token holds by what this process has folded; the socket is ended when it does not. */
  check(client: Client): boolean {
    if (client.gone) return false;
    try {
      this.tokens.verify(client.token);
      return true;
    } catch (error) {
      this.end(client, error);
      return false;
    }
  }

  /** `check`, a staff sign-in's token after folding the staff stream up to now (any process's changes count). */
  async current(client: Client): Promise<boolean> {
    if (client.principal.generation !== undefined && this.staff) await this.staff.fresh();
    return this.check(client);
  }

  /**
   * A staff event about `username` was recorded (by this process or another): the directory is folded, and the
   * account's sockets are checked again. Never rejects.
   */
  async accountChanged(username: string): Promise<void> {
    try {
      await this.staff?.fresh();
      for (const client of this.clients.ofPrincipal(username))
        if (client.principal.generation !== undefined) this.check(client);
    } catch (error) {
      // The next subscribe or command of each of its sockets folds and checks again.
      this.log.warn({ msg: 'staff change not checked against the live sockets', error: String(error) });
    }
  }

  private expire(client: Client): void {
    client.expiryTimer = null;
    if (this.check(client)) this.watch(client); // a timer cut at its longest delay, or one a moment early
  }

  private end(client: Client, error: unknown): void {
    const body = toErrorBody(error);
    const reason = error instanceof TokenError ? error.code : body.code;
    this.sender.error(client, body.statusCode, body.code, body.message);
    client.socket.close(CLOSE.unauthenticated, reason);
    this.clients.drop(client);
    this.log.log({
      msg: 'live socket ended: its token no longer holds',
      principal: client.principal.id,
      reason,
    });
  }
}
