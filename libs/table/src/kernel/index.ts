/** The kernel: what every command's spec is run with (context, refusals, field readers, guards, shared events). */
export * from './context';
export * from './decide';
export * from './envelope';
export * from './fields';
export * from './guards';
export * from './personal-table';
export * from './refusal';
export * from './reply';
export * from './shared-events';
export * from './spec';
