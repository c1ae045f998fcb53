import type { ArgumentsHost } from '@nestjs/common';
import { AllExceptionsFilter } from '../common/exception.filter';
import { JsonLogger } from '../common/logger';
import { Metrics } from '../common/metrics';
import { installUnexpectedErrorHandlers } from './unexpected-errors';

const count = async (metrics: Metrics, source: string) =>
  (await metrics.unexpectedErrors.get()).values.find((v) => v.labels.source === source)?.value ?? 0;

describe('errors no code expected', () => {
  let lines: string[];
  let metrics: Metrics;
  let stops: number[];
  let remove: () => void;
  beforeEach(() => {
    lines = [];
    metrics = new Metrics(false);
    stops = [];
    remove = installUnexpectedErrorHandlers(new JsonLogger('info', (l) => lines.push(l)), metrics, (code) =>
      stops.push(code),
    );
  });
  afterEach(() => remove());

  it('an unhandled rejection is logged with its stack and counted, and the service keeps serving', async () => {
    const reason = Object.assign(new Error('nobody awaited me'), { code: 'STORE_UNAVAILABLE' });
    process.emit('unhandledRejection', reason, Promise.resolve());
    expect(stops).toEqual([]);
    expect(await count(metrics, 'unhandled_rejection')).toBe(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'error',
      context: 'process',
      source: 'unhandled_rejection',
      error: 'nobody awaited me',
      code: 'STORE_UNAVAILABLE',
    });
    expect(line['stack']).toContain('unexpected-errors.unit.spec.ts');
  });

  it('an uncaught exception is logged and counted, then the service stops for a restart (exit code 1)', async () => {
    process.emit('uncaughtException', new TypeError('half done'));
    expect(stops).toEqual([1]);
    expect(await count(metrics, 'uncaught_exception')).toBe(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ source: 'uncaught_exception', name: 'TypeError' });
  });

  it('a request that ends in a 500 is counted as a request error; a refusal is not', async () => {
    const filter = new AllExceptionsFilter(metrics);
    const sent: unknown[] = [];
    const reply = {
      status: () => reply,
      header: () => reply,
      send: (body: unknown) => sent.push(body),
    };
    const host = {
      getType: () => 'http',
      switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ correlationId: 'c-1' }) }),
    } as unknown as ArgumentsHost;
    // The filter logs the 500 with Nest's logger: kept out of the test output.
    const quiet = [process.stdout, process.stderr].map((s) => jest.spyOn(s, 'write').mockReturnValue(true));
    try {
      filter.catch(new Error('a defect'), host);
      filter.catch(Object.assign(new Error('bad'), { statusCode: 400 }), host);
    } finally {
      for (const spy of quiet) spy.mockRestore();
    }
    expect(sent).toMatchObject([
      { statusCode: 500, code: 'INTERNAL_ERROR', correlationId: 'c-1' },
      { statusCode: 400 },
    ]);
    expect(await count(metrics, 'request')).toBe(1);
  });
});
