import { ConfigError } from '../config.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import type { Command } from './command.ts';
import { commands } from './commands/index.ts';
import { CliError } from './errors.ts';

function usage(): string {
  const width = Math.max(...commands.map((command) => command.usage.length));
  return ['usage: earshot <command> [options]', '', ...commands.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`)].join('\n');
}

/** The command whose words start the argument list, longest match first. */
function findCommand(args: string[]): Command | undefined {
  return [...commands]
    .sort((a, b) => b.path.length - a.path.length)
    .find((command) => command.path.every((word, i) => args[i] === word));
}

export async function main(args: string[]): Promise<number> {
  if (args.length === 0 || args[0] === 'help' || args[0] === '--help' || args[0] === '-h') {
    console.log(usage());
    return 0;
  }
  const command = findCommand(args);
  if (!command) {
    console.error(`unknown command: ${args.join(' ')}\n\n${usage()}`);
    return 2;
  }
  try {
    await command.run(args.slice(command.path.length));
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      console.error(`earshot: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof ConfigError || error instanceof DataDirInUseError) {
      console.error(`earshot: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

const exitCode = await main(process.argv.slice(2));
// serve keeps running on its open sockets; every other command ends here.
if (exitCode !== 0 || process.argv[2] !== 'serve') process.exitCode = exitCode;
