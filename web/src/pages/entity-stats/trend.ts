/**
 * The entity statistics' months as drawings: SVG paths in a fixed box the chart stretches to its
 * width, and the same figures in words for screen readers.
 */
import { formatDay } from '../stats.ts';

export interface MonthRow {
  month: string;
  plays: number;
  viewerPlays?: number | undefined;
  rank?: number | undefined;
}

/** The drawing's own units: the SVG stretches them to the width it gets (preserveAspectRatio none). */
export const BOX = { width: 600, height: 160, pad: 6 } as const;

/** x of the month at `index` of `count`: the first at the left edge, the last at the right. */
const xAt = (index: number, count: number) => (count === 1 ? BOX.width / 2 : BOX.width * (index / (count - 1)));

/**
 * An SVG path through the values, scaled from `low` (bottom) to `high` (top); a missing value
 * breaks the line, and a point alone is a zero-length stroke (a dot with round caps).
 */
export function linePath(values: readonly (number | undefined)[], low: number, high: number): string {
  const span = high - low || 1;
  const yAt = (value: number) => BOX.pad + (BOX.height - 2 * BOX.pad) * (1 - (value - low) / span);
  const parts: string[] = [];
  let drawing = false;
  values.forEach((value, index) => {
    if (value === undefined) {
      drawing = false;
      return;
    }
    const point = `${round(xAt(index, values.length))} ${round(yAt(value))}`;
    const alone = !drawing && values[index + 1] === undefined;
    parts.push(drawing ? `L${point}` : alone ? `M${point}h0` : `M${point}`);
    drawing = true;
  });
  return parts.join(' ');
}

const round = (value: number) => Math.round(value * 10) / 10;

/** The plays chart's paths: everyone's and, when given, the viewer's, on one scale from 0. */
export function playsPaths(months: readonly MonthRow[]): { everyone: string; viewer?: string; max: number } {
  const signedIn = months.some((m) => m.viewerPlays !== undefined);
  const max = Math.max(1, ...months.map((m) => m.plays));
  return {
    everyone: linePath(
      months.map((m) => m.plays),
      0,
      max,
    ),
    ...(signedIn && {
      viewer: linePath(
        months.map((m) => m.viewerPlays ?? 0),
        0,
        max,
      ),
    }),
    max,
  };
}

/** The rank chart's path, first place at the top; months without plays (no rank) leave gaps. */
export function rankPath(months: readonly MonthRow[]): { path: string; worst: number } | null {
  const ranks = months.map((m) => m.rank);
  const worst = Math.max(0, ...ranks.map((rank) => rank ?? 0));
  if (worst === 0) return null;
  return {
    path: linePath(
      ranks.map((rank) => (rank === undefined ? undefined : -rank)),
      -Math.max(worst, 2),
      -1,
    ),
    worst,
  };
}

/** "Nov 2026" for 2026-11. */
export const monthName = (month: string, style: 'short' | 'long' = 'short') => formatDay(`${month}-01`, { month: style, year: 'numeric' });

/** The plays chart in words: its span, total, busiest month, and the viewer's share. */
export function playsSummary(months: readonly MonthRow[]): string {
  if (months.length === 0) return 'No months to chart.';
  const total = months.reduce((sum, m) => sum + m.plays, 0);
  const span = `from ${monthName(months[0]!.month, 'long')} to ${monthName(months.at(-1)!.month, 'long')}`;
  if (total === 0) return `No plays ${span}.`;
  const busiest = months.reduce((best, m) => (m.plays > best.plays ? m : best));
  const yours = months.some((m) => m.viewerPlays !== undefined)
    ? ` ${months.reduce((sum, m) => sum + (m.viewerPlays ?? 0), 0).toLocaleString()} of them yours.`
    : '';
  return `Plays per month ${span}: ${total.toLocaleString()} in all, the most (${busiest.plays.toLocaleString()}) in ${monthName(busiest.month, 'long')}.${yours}`;
}
