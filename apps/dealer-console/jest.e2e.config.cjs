// Browser tests: Node environment (they drive Chromium through playwright-core), one file at a time.
module.exports = require('../../jest.preset.js')(__dirname, {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/e2e/**/*.e2e.spec.ts'],
  testTimeout: 120000,
  maxWorkers: 1,
});
