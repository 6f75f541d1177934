/** The arithmetic behind the profile's listening clock: the server's non-zero cells as a full 7 × 24 grid, with words for each cell. */
import type { Output } from '../api/xrpc.ts';

export type ClockCell = Output<'app.svc.stats.getListeningClock'>['clock'][number];

/** Monday first, as the server counts (Monday = 0). */
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

export interface ClockGrid {
  /** counts[weekday][hour], zero where the server sent no cell. */
  counts: number[][];
  max: number;
  total: number;
}

export function clockGrid(cells: readonly ClockCell[]): ClockGrid {
  const counts = WEEKDAYS.map(() => Array.from({ length: 24 }, () => 0));
  for (const cell of cells) counts[cell.weekday]![cell.hour] = cell.count;
  return { counts, max: Math.max(0, ...cells.map((cell) => cell.count)), total: cells.reduce((sum, cell) => sum + cell.count, 0) };
}

export const clockHour = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** What a cell says to a screen reader and in its tooltip: "Mon 21:00 – 3 plays". */
export const cellLabel = (weekday: number, hour: number, count: number) =>
  `${WEEKDAYS[weekday]} ${clockHour(hour)} – ${count} ${count === 1 ? 'play' : 'plays'}`;

/** The busiest cell in words, for the grid's caption; null when there are no plays. */
export function busiest(cells: readonly ClockCell[]): string | null {
  const top = cells.reduce<ClockCell | null>((best, cell) => (best === null || cell.count > best.count ? cell : best), null);
  return top && cellLabel(top.weekday, top.hour, top.count);
}
