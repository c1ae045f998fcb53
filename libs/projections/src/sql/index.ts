export * from './dialect';
export * from './reader';
