export * from './driver';
export * from './events';
export * from './store';
export * from './scenario';
export * from './coups';
