// Fault tests: the real service as a child process (built once into a private temp dir), killed
// and restarted on purpose. Run with `npm run test:faults`; not part of `npm test`.
const root = require('../../jest.config.js');
module.exports = {
  ...root,
  rootDir: '../..',
  roots: ['<rootDir>/test/faults'],
  testRegex: '.*\\.fault-spec\\.ts$',
  globalSetup: '<rootDir>/test/faults/global-setup.ts',
  globalTeardown: '<rootDir>/test/faults/global-teardown.ts',
  testTimeout: 120000,
  maxWorkers: 1,
};
