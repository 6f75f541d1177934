import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './errors.ts';

export interface Command {
  /** Words that select it, e.g. ['token', 'create']. */
  path: string[];
  usage: string;
  summary: string;
  run(args: string[]): Promise<void>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** `--server URL`, accepted by every command that talks to a running server. */
export const serverOption = { server: { type: 'string' } } as const;

/** parseArgs with usage errors instead of exceptions, and an exact positional count (or at least `min`). */
export function parseCommandArgs<O extends Options>(command: { usage: string }, args: string[], options: O, positionals: number | { min: number }) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(`${(error as Error).message}\nusage: earshot ${command.usage}`);
  }
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
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  console.log(line(columns));
  for (const cells of text) console.log(line(cells));
}
