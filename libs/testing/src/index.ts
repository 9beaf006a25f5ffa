export * from './test-env';
export * from './wait';
export * from './free-port';
export * from './seed';
export * from './oauth-consent';
export * from './prometheus-text';
export * from './test-media';
export { testServers } from './config';
