import { ConfigError } from '../toolkit/config-error.ts';
import { loadEnvFile } from '../toolkit/config.ts';
import { DataDirInUseError } from '../toolkit/db/data-dir-lock.ts';
import { diskFull, OperatingError } from '../toolkit/operating-errors.ts';
import { PACKAGE_VERSION } from '../toolkit/package-root.ts';
import type { Command } from './command.ts';
import { commands } from './commands/index.ts';
import { CliError } from './errors.ts';

const isHelp = (word: string | undefined) => word === '--help' || word === '-h';

function listing(title: string, shown: Command[]): string {
  const width = Math.max(...shown.map((command) => command.usage.length));
  return [title, '', ...shown.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`)].join('\n');
}

const usage = () => listing('usage: earshot <command> [options]   (earshot <command> --help for one command)', commands);

/** The commands under a first word that has several (`key`, `user`, `provider` …), listed by `earshot key`. */
const groupUsage = (word: string | undefined) => {
  const group = commands.filter((command) => command.path.length > 1 && command.path[0] === word);
  return group.length > 0 ? listing(`usage: earshot ${word} <command> [options]`, group) : undefined;
};

/** The command whose words start the argument list, longest match first. */
function findCommand(args: string[]): Command | undefined {
  return [...commands].sort((a, b) => b.path.length - a.path.length).find((command) => command.path.every((word, i) => args[i] === word));
}

function answer(text: string): number {
  console.log(text);
  return 0;
}

/** Help and version, which load no command; undefined when the arguments ask for neither. */
function answerWithoutRunning(args: string[]): number | undefined {
  if (args.length === 0 || args[0] === 'help' || isHelp(args[0])) return answer(usage());
  if (args[0] === '--version' || args[0] === '-v') return answer(PACKAGE_VERSION);
  const command = findCommand(args);
  if (command) return args.slice(command.path.length).some(isHelp) ? answer(`usage: earshot ${command.usage}\n\n${command.summary}`) : undefined;
  const group = groupUsage(args[0]);
  if (group && (args.length === 1 || isHelp(args[1]))) return answer(group);
  console.error(`unknown command: ${args.join(' ')}\n\n${group ?? usage()}`);
  return 2;
}

export async function main(args: string[]): Promise<number> {
  const answered = answerWithoutRunning(args);
  if (answered !== undefined) return answered;
  const command = findCommand(args)!;
  try {
    loadEnvFile();
    await (await command.load())(args.slice(command.path.length), command);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      console.error(`earshot: ${error.message}`);
      return error.exitCode;
    }
    // What the user or the machine must fix, in one line; anything else is a bug and keeps its stack.
    const known = diskFull(error);
    if (known instanceof ConfigError || known instanceof DataDirInUseError || known instanceof OperatingError) {
      console.error(`earshot: ${known.message}`);
      return 1;
    }
    throw error;
  }
}

const exitCode = await main(process.argv.slice(2));
// serve keeps running on its open sockets; every other command ends here.
if (exitCode !== 0 || process.argv[2] !== 'serve') process.exitCode = exitCode;
