export * from './config';
export * from './context';
export * from './logger';
export * from './lifecycle';
export * from './datasource';
