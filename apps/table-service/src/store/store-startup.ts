import type { Logger } from '@nestjs/common';
import { DEFAULT_FOLLOW_RETRY, type FollowRetry, retryDelay } from './log-follower';

/** An error of a store that does not answer (its code starts with STORE_: unavailable, closed, ...). */
export function isStoreUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('STORE_');
}

export interface StoreStartup {
  /** True once `start` has run to its end. */
  readonly started: boolean;
  /** Stops trying (the service is stopping). */
  stop(): void;
}

/** Whether the start-up reads have run to their end, for `/health` (`starting` until then). */
export class StartupProgress {
  private startup: StoreStartup | null = null;

  /** The start-up under way, once its first attempt has run. */
  follow(startup: StoreStartup): void {
    this.startup = startup;
  }

  get started(): boolean {
    return this.startup?.started ?? false;
  }
}

/**
 * Runs the start-up reads now; when the store does not answer (a server down at start), the process serves anyway
 * (`/health` says the store is unavailable) and `start` runs again after a backoff (the followers' schedule) until
 * it succeeds. `start` must be safe to run again after it failed part-way. Any other error is thrown.
 */
export async function startWhenStoreAnswers(
  start: () => Promise<void>,
  log: Logger,
  retry: FollowRetry = DEFAULT_FOLLOW_RETRY,
): Promise<StoreStartup> {
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const attempt = async (failures: number): Promise<void> => {
    try {
      await start();
      started = true;
      if (failures > 0) log.log({ msg: 'the event store answers: started', attempts: failures + 1 });
    } catch (error) {
      if (!isStoreUnavailable(error) || stopped) throw error;
      log.warn({
        msg: 'the event store does not answer at start: serving, and trying again',
        error: String((error as Error).message),
        attempts: failures + 1,
      });
      timer = setTimeout(
        () => {
          timer = null;
          attempt(failures + 1).catch((e: unknown) =>
            log.error({ msg: 'start-up failed', error: String((e as Error).message) }),
          );
        },
        retryDelay(retry, failures, Math.random),
      );
    }
  };
  await attempt(0);
  return {
    get started() {
      return started;
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
