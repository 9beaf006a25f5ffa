export * from './client';
export type { paths, components, operations } from './schema';
