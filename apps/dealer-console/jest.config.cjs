// Component and unit tests run in jsdom (the app is browser code); `@coup/*` resolve to the libraries' sources.
module.exports = require('../../jest.preset.js')(__dirname, {
  testEnvironment: 'jsdom',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.spec.tsx'],
  setupFilesAfterEnv: ['<rootDir>/src/test-setup.ts'],
});
