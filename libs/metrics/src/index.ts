export * from './metric-names';
export * from './service-metrics';
export * from './http-metrics.middleware';
