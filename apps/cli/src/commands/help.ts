import type { Command } from '../command';
import { EXIT, UsageError } from '../io';

/** `coup help [command]`, over the registry it is given. */
export function helpCommand(commands: () => readonly Command[]): Command {
  return {
    name: 'help',
    summary: 'list the commands, or show how to use one: coup help <command>',
    usage: 'coup help [command]',
    run(args, io) {
      const list = commands();
      if (args.length > 1) throw new UsageError(`help takes one command name, got ${args.length}`, 'help');
      const name = args[0];
      if (name !== undefined) {
        const command = list.find((c) => c.name === name);
        if (command === undefined) {
          throw new UsageError(`unknown command '${name}' (commands: ${list.map((c) => c.name).join(', ')})`);
        }
        io.stdout.write(`${command.summary}\n\nUsage: ${command.usage}\n`);
        return EXIT.ok;
      }
      io.stdout.write(`${usageText(list)}\n`);
      return EXIT.ok;
    },
  };
}

/** The overview: how to run `coup`, and every command with its summary. */
export function usageText(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'coup: the Coup baccarat tools',
    '',
    'Usage: coup <command> [options]     (from the repository: npm run -s coup -- <command> [options])',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'coup help <command>' or 'coup <command> --help' for a command's options.",
    `Exit codes: ${EXIT.ok} success, ${EXIT.failure} failure, ${EXIT.usage} bad arguments, ${EXIT.notFoldedYet} not folded into the read models yet (replay, verify: retry later).`,
  ].join('\n');
}
