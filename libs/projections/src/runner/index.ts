export * from './db';
export * from './write-set';
export * from './engine';
export * from './runner';
export * from './rebuild';
export * from './sqlite-store';
