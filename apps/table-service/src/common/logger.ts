import type { LoggerService } from '@nestjs/common';
import type { LogLevel } from '../config/config';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Structured JSON logs, one object per line; a request's log line carries its `correlationId` field. */
export class JsonLogger implements LoggerService {
  constructor(
    private readonly level: LogLevel = 'info',
    private readonly write: (line: string) => void = (line) => process.stdout.write(line + '\n'),
  ) {}

  private emit(level: LogLevel, message: unknown, context?: string, extra?: Record<string, unknown>): void {
    if (ORDER[level] < ORDER[this.level]) return;
    const body =
      typeof message === 'object' && message !== null && !(message instanceof Error)
        ? (message as Record<string, unknown>)
        : { msg: message instanceof Error ? message.message : String(message) };
    this.write(
      JSON.stringify({
        time: new Date().toISOString(),
        level,
        ...(context ? { context } : {}),
        ...body,
        ...extra,
      }),
    );
  }

  log(message: unknown, context?: string): void {
    this.emit('info', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.emit('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.emit('debug', message, context);
  }
  warn(message: unknown, context?: string): void {
    this.emit('warn', message, context);
  }
  error(message: unknown, stack?: string, context?: string): void {
    this.emit('error', message, context, stack ? { stack } : undefined);
  }
}
