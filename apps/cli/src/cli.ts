/** The `coup` command line: finds the command, runs it, and turns errors into messages and exit codes. */
import { EngineError } from '@coup/engine';
import type { Command } from './command';
import { COMMANDS } from './commands';
import { helpCommand, usageText } from './commands/help';
import { EXIT, UsageError, type CliIo } from './io';

/** The registry `runCli` uses by default: {@link COMMANDS} and `help`. */
export function defaultCommands(): readonly Command[] {
  const all: Command[] = [...COMMANDS];
  all.push(helpCommand(() => all));
  return all;
}

/**
 * Runs `coup` with the arguments after the program name and returns the exit code ({@link EXIT}): 0 success,
 * 1 failure, 2 bad arguments (a message on stderr says what was wrong), 3 not folded yet (`replay` and `verify`
 * over the shared read models: retry later). `--help` or `-h` after a command shows its usage.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  commands = defaultCommands(),
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    (name === undefined ? io.stderr : io.stdout).write(`${usageText(commands)}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = commands.find((c) => c.name === name);
  try {
    if (command === undefined) {
      throw new UsageError(`unknown command '${name}' (commands: ${commands.map((c) => c.name).join(', ')})`);
    }
    if (args.includes('--help') || args.includes('-h')) {
      io.stdout.write(`${command.summary}\n\nUsage: ${command.usage}\n`);
      return EXIT.ok;
    }
    return await command.run(args, io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof EngineError) {
      const about = e instanceof UsageError ? e.command : command?.name;
      io.stderr.write(`coup ${name}: ${e.message}\n`);
      io.stderr.write(
        about ? `Run 'coup help ${about}' for usage.\n` : "Run 'coup help' for the commands.\n",
      );
      return EXIT.usage;
    }
    io.stderr.write(`coup ${name}: failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return EXIT.failure;
  }
}
