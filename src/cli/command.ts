import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './errors.ts';

/** What the CLI knows of a command without loading its module: enough to dispatch and to print help. */
export interface CommandInfo {
  /** Words that select it, e.g. ['token', 'create']. */
  path: string[];
  usage: string;
  summary: string;
}

export type CommandRun = (args: string[], command: CommandInfo) => Promise<void>;

export interface Command extends CommandInfo {
  /** Imports the implementation only when the command runs, so `earshot --help` loads no database or server code. */
  load(): Promise<CommandRun>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** `--server URL`, accepted by every command that talks to a running server. */
export const serverOption = { server: { type: 'string' } } as const;

/** `--json`, accepted by the list commands: the server's answer as JSON on stdout, for scripts. */
export const jsonOption = { json: { type: 'boolean', default: false } } as const;

export const printJson = (value: unknown) => console.log(JSON.stringify(value, null, 2));

/** parseArgs with usage errors instead of exceptions, and an exact positional count (or at least `min`). */
export function parseCommandArgs<O extends Options>(command: CommandInfo, args: string[], options: O, positionals: number | { min: number }) {
  const parsed = (() => {
    try {
      return parseArgs({ args, options, allowPositionals: true, strict: true });
    } catch (error) {
      throw usageError(`${(error as Error).message}\nusage: earshot ${command.usage}`);
    }
  })();
  const fits = typeof positionals === 'number' ? parsed.positionals.length === positionals : parsed.positionals.length >= positionals.min;
  if (!fits) throw usageError(`usage: earshot ${command.usage}`);
  return parsed;
}

export function printTable(rows: Record<string, unknown>[], columns: string[]): void {
  if (rows.length === 0) {
    console.log('(none)');
    return;
  }
  const text = rows.map((row) => columns.map((column) => String(row[column] ?? '-')));
  const widths = columns.map((column, i) => Math.max(column.length, ...text.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(line(columns));
  for (const cells of text) console.log(line(cells));
}
