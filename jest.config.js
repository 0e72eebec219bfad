// One config for unit (src/ **.spec.ts) and e2e (test/e2e/*.e2e-spec.ts) tests; see README.
const swc = ['@swc/jest', {
  jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' },
  module: { type: 'commonjs' },
}];
module.exports = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  // NestJS 12 ships ES modules only; jest on Node 20 needs them compiled to CommonJS.
  transform: { '^.+\\.(t|j)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|file-type|strtok3|token-types|peek-readable|uint8array-extras|@tokenizer|@borewit)/)'],
  testEnvironment: 'node',
  // file-type 21 (the last release for Node 20) exports its Node entry under `import` and
  // `module-sync` only (the condition Node 20's require() of an ES module uses), which jest's
  // resolver does not try: point it at that entry (compiled to CommonJS like the rest).
  moduleNameMapper: { '^file-type$': '<rootDir>/node_modules/file-type/index.js' },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 60000,
};
module.exports.reporters = ['default', '<rootDir>/test/setup/summary-reporter.js'];
