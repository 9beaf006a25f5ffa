/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/scripts', '<rootDir>/deploy'],
  testMatch: ['**/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  testTimeout: 60_000,
  maxWorkers: 2,
};
