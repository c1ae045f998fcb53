/** `@coup/cli`: the `coup` command line, importable so other tools and tests can run its commands. */
export { runCli, defaultCommands } from './cli';
export type { Command } from './command';
export { COMMANDS } from './commands';
export { parseArgs, type OptionSpec, type OptionSpecs, type Parsed, type ParsedOptions } from './args';
export { EXIT, UsageError, type CliIo, type Writer } from './io';
