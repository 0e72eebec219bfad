// Soak run: the real service under mixed load for SOAK_SECONDS (default 180). `npm run test:soak`;
// minutes long, so not part of `npm test` or CI.
const faults = require('../faults/jest.faults.config.js');
const seconds = Number(process.env.SOAK_SECONDS || 180);
module.exports = {
  ...faults,
  roots: ['<rootDir>/test/soak'],
  testRegex: '.*\\.soak-spec\\.ts$',
  testTimeout: (seconds + 300) * 1000,
};
