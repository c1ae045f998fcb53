export * from './driver';
export * from './events';
export * from './store';
export * from './scenario';
export * from './coups';
export * from './corpus';
export * from './pg-copy';
export * from './query-answers';
