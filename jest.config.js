/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/scripts', '<rootDir>/deploy'],
  testMatch: ['**/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // Each service's own RabbitMQ user (libs/bus/src/broker-users.ts), created once per run.
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
};
