export * from './connection';
export * from './errors';
export * from './rpc';
export * from './events';
export * from './outbox';
export * from './bus';
export * from './observer';
export * from './dead-letters';
