import type { LoggerService } from '@nestjs/common';
import type { Metrics } from '../common/metrics';

/** What the process does with an error no code expected (ARCHITECTURE.md, ADR-17). */
export type UnexpectedSource = 'unhandled_rejection' | 'uncaught_exception';

/**
 * Installs the process's last-resort handlers:
 * - an unhandled rejection is logged with its stack and counted (`coup_unexpected_errors_total`), and the
 *   service keeps serving: a rejection belongs to one operation that nobody awaited, the tables' state only
 *   changes after its events are on disk, and exiting would turn one bad request into every table being down;
 * - an uncaught exception is logged and counted too, then `stop(1)` shuts the service down for its supervisor to
 *   restart: a synchronous throw that escaped to the event loop may have left any in-memory structure half
 *   updated, and the events on disk rebuild every table on the next start.
 * Returns a function that removes the handlers (tests).
 */
export function installUnexpectedErrorHandlers(
  log: LoggerService,
  metrics: Metrics,
  stop: (exitCode: number) => void,
): () => void {
  const report = (source: UnexpectedSource, error: unknown) => {
    metrics.unexpectedErrors.inc({ source });
    const e = error as { message?: unknown; stack?: unknown; name?: unknown; code?: unknown };
    log.error(
      {
        msg:
          source === 'uncaught_exception'
            ? 'uncaught exception: stopping for a restart'
            : 'unhandled rejection',
        source,
        error: String(e?.message ?? error),
        name: typeof e?.name === 'string' ? e.name : undefined,
        code: typeof e?.code === 'string' ? e.code : undefined,
      },
      typeof e?.stack === 'string' ? e.stack : undefined,
      'process',
    );
  };
  const onRejection = (reason: unknown) => report('unhandled_rejection', reason);
  const onException = (error: Error) => {
    report('uncaught_exception', error);
    stop(1);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
