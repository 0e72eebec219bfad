// Browser tests: the real service (built privately, as the fault tests do) with the built console,
// driven through Debian's chromium by playwright-core. `npm run test:browser`; `npm test` runs them last.
const root = require('../../jest.config.js');
module.exports = {
  ...root,
  rootDir: '../..',
  roots: ['<rootDir>/test/browser', '<rootDir>/web/src'],
  testRegex: '.*\\.(browser-spec|spec)\\.ts$',
  globalSetup: '<rootDir>/test/browser/global-setup.ts',
  globalTeardown: '<rootDir>/test/browser/global-teardown.ts',
  testTimeout: 120000,
  maxWorkers: 1,
};
