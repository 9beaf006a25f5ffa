export * from './test-env';
export * from './wait';
export * from './system';
export * from './seed';
export * from './oauth-consent';
export * from './prometheus-text';
export { testServers } from './config';
