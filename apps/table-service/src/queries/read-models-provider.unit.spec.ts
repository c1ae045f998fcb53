import { Logger } from '@nestjs/common';
import type { SqlReader } from '@coup/projections';
import { ApiError } from '../common/api-error';
import { guardedReader } from './read-models-provider';

/** A reader whose every query fails with `error`. */
const failing = (error: unknown): SqlReader => ({
  dialect: 'sqlite',
  all: () => Promise.reject(error),
  get: () => Promise.reject(error),
});

const sqliteError = (message: string) => Object.assign(new Error(message), { code: 'SQLITE_ERROR' });

describe('guardedReader', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers a missing table as 503 READ_MODELS_UNAVAILABLE and says it once in the log', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const reader = guardedReader(failing(sqliteError('no such table: zz_missing_once')));
    for (let i = 0; i < 3; i++) {
      const error = await reader.all('SELECT 1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 503, code: 'READ_MODELS_UNAVAILABLE' });
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/no such table: zz_missing_once/);
  });

  it('leaves any other failure as it is (a bad query stays a 500, logged by the filter)', async () => {
    const bad = sqliteError('near "SELEC": syntax error');
    await expect(guardedReader(failing(bad)).get('SELEC 1')).rejects.toBe(bad);
  });
});
