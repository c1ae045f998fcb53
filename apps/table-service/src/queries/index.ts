export { QueriesModule, type QueriesModuleOptions } from './queries.module';
export { registerProjectionMetrics } from './metrics';
