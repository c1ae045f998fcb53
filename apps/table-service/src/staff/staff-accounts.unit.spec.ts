import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config';
import { firstLocalAdminDue } from './staff-accounts';

const config = (env: Record<string, string> = {}) =>
  loadConfig({
    COUP_SEED_KEY: '5e'.repeat(32),
    COUP_DATA_DIR: mkdtempSync(join(tmpdir(), 'coup-first-')),
    ...env,
  });

describe('a first local admin is made and printed', () => {
  it('on the embedded store with the secret generated into the data folder (`npm start`)', () => {
    expect(firstLocalAdminDue(config(), {})).toBe(true);
  });

  it('never with a configured secret, another store, or NODE_ENV=production', () => {
    expect(firstLocalAdminDue(config({ COUP_JWT_SECRET: 's'.repeat(32) }), {})).toBe(false);
    expect(firstLocalAdminDue(config({ COUP_EVENT_STORE: 'memory' }), {})).toBe(false);
    expect(firstLocalAdminDue(config(), { NODE_ENV: 'production' })).toBe(false);
  });
});
