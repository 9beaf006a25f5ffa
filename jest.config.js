/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/scripts', '<rootDir>/deploy', '<rootDir>/tests/system'],
  // Each package's tests beside it (test/); the whole-system tests in tests/system/<area>/.
  testMatch: ['**/test/**/*.test.ts', '<rootDir>/tests/system/**/*.test.ts'],
  transform: {
    // oauth4webapi ships ES modules only; jest on Node 20 loads CommonJS.
    '/oauth4webapi/build/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // Each service's own RabbitMQ user (libs/bus/src/broker-users.ts), created once per run.
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?oauth4webapi)'],
  testTimeout: 60_000,
  maxWorkers: 2,
};
