export * from './config';
export * from './context';
export * from './logger';
export * from './lifecycle';
export * from './datasource';
export * from './database-roles';
export * from './sealing/key-ring';
export * from './sealing/key-config';
