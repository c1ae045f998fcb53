import { Logger } from '@nestjs/common';
import type { staff } from '@coup/auth';
import type { TableState } from '@coup/table';
import type { TableProcessor } from './table-processor';
import type { Clock } from './edge-inputs';

/** After a failed attempt that was not the table's refusal, the timer tries to close betting again this much later. */
export const TIMER_RETRY_MS = 1_000;

/** The actor the service uses for the betting timer's automatic "no more bets". */
export const TIMER_ACTOR = { id: 'betting-timer', role: 'dealer' } as const satisfies {
  id: (typeof staff.SYSTEM_ACTOR_NAMES)[number];
  role: 'dealer';
};

/**
 * The betting timer: the deadline is in the round's event (BettingOpened), so after a restart the timer is
 * re-armed from the events, never from a clock that was running before. At the deadline the service sends
 * CloseBetting { byTimer: true }; the decider refuses it if the deadline has not really passed.
 */
export class BettingTimer {
  private readonly log = new Logger('betting-timer');
  private readonly armed = new Map<string, string>();

  constructor(
    private readonly tables: TableProcessor,
    private readonly clock: Clock,
  ) {}

  /**
   * Called with every table's new state, after every batch of commands: reads only the phase and the round's
   * deadline (never builds a view, which walks every seated player), so it costs nothing on the bet path.
   */
  onStateChanged(tableId: string, state: TableState): void {
    if (state.phase !== 'betting') return;
    const round = state.round;
    const deadline = round?.deadline;
    if (!round || !deadline) return;
    const roundNo = round.roundNo;
    const armedFor = `${roundNo}@${deadline}`;
    if (this.armed.get(tableId) === armedFor) return;
    this.armed.set(tableId, armedFor);
    this.tables.setTimer(tableId, Date.parse(deadline), () => {
      this.armed.delete(tableId);
      this.tables
        .execute(tableId, {
          type: 'CloseBetting',
          data: { roundNo, byTimer: true },
          meta: { actor: TIMER_ACTOR, at: this.clock.now() },
        })
        .catch((error: { code?: string }) => {
          if (error.code === 'DEADLINE_NOT_REACHED') {
            this.onStateChanged(tableId, state);
          } else if (
            error.code !== 'BETTING_CLOSED' &&
            error.code !== 'WRONG_PHASE' &&
            error.code !== 'WRONG_ROUND'
          ) {
            // Not the table's answer (the store unreachable, the service shutting down): try again shortly, so a
            // round never stays open past its deadline because of one failed attempt.
            this.log.warn({
              msg: 'timer could not close betting; retrying',
              tableId,
              roundNo,
              code: error.code,
            });
            const retry = setTimeout(() => this.onStateChanged(tableId, state), TIMER_RETRY_MS);
            retry.unref?.();
          }
        });
    });
  }
}
