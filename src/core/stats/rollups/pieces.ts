import type { StatsGrain } from '../../../toolkit/db/index.ts';

/**
 * How a window [start, end) of plays is read: rollup periods (whole UTC years, months, days) and
 * raw plays, each with a weight. The window's count is the weighted sum of the pieces' counts.
 *
 * With F(t) the plays before t, each edge t is reached from a year boundary through the nearest
 * month boundary and the nearest midnight: F(t) = F(year) ± months ± days ± raw, every step in
 * whichever direction is shorter. So an edge costs at most 6 month rows, 15 day rows and 12 hours
 * of raw plays however long the history is, and the whole years between the edges are read
 * from their own rows. A calendar year in any zone is one year row plus a few hours of raw plays
 * at each end.
 */
export interface Piece {
  source: StatsGrain | 'raw';
  from: Date;
  to: Date;
  weight: number;
}

const DAY_MS = 86_400_000;
/** Windows shorter than this are read raw: a few days of plays cost less than the rollups' detour. */
const RAW_ONLY_MS = 2 * DAY_MS;

type Boundary = (ms: number, step: number) => number;

const days: Boundary = (ms, step) => Math.floor(ms / DAY_MS) * DAY_MS + step * DAY_MS;
const months: Boundary = (ms, step) => {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + step, 1);
};
const years: Boundary = (ms, step) => Date.UTC(new Date(ms).getUTCFullYear() + step, 0, 1);

/** The boundary (floor or ceiling) nearest to `ms`; a boundary itself is its own nearest. */
function nearest(boundary: Boundary, ms: number): number {
  const floor = boundary(ms, 0);
  const ceiling = floor === ms ? ms : boundary(ms, 1);
  return ms - floor <= ceiling - ms ? floor : ceiling;
}

/** Adds `weight` × the plays in [a, b) as whole units of `boundary` (negated when b < a). */
function addUnits(units: Map<number, number>, boundary: Boundary, a: number, b: number, weight: number): void {
  const [from, to, sign] = a <= b ? [a, b, weight] : [b, a, -weight];
  for (let unit = from; unit < to; unit = boundary(unit, 1)) units.set(unit, (units.get(unit) ?? 0) + sign);
}

/** Units with the same weight in a row become one piece; units whose weights cancelled drop out. */
function toPieces(source: StatsGrain, units: Map<number, number>, boundary: Boundary): Piece[] {
  const pieces: Piece[] = [];
  for (const unit of [...units.keys()].sort((a, b) => a - b)) {
    const weight = units.get(unit)!;
    if (weight === 0) continue;
    const last = pieces.at(-1);
    if (last && last.to.getTime() === unit && last.weight === weight) last.to = new Date(boundary(unit, 1));
    else pieces.push({ source, from: new Date(unit), to: new Date(boundary(unit, 1)), weight });
  }
  return pieces;
}

function signedRange(source: Piece['source'], a: number, b: number, weight: number): Piece[] {
  if (a === b) return [];
  return a < b ? [{ source, from: new Date(a), to: new Date(b), weight }] : [{ source, from: new Date(b), to: new Date(a), weight: -weight }];
}

const BOUNDARIES: Record<StatsGrain, Boundary> = { y: years, m: months, d: days };

/**
 * The one period a rollup piece covers, when it covers exactly one: its rows are then read with
 * period_start equal to it, which gives them in track order (the rollup's key), so a join with
 * the catalog by track needs no sort.
 */
export function onePeriod(piece: Piece): Date | undefined {
  if (piece.source === 'raw') return undefined;
  return BOUNDARIES[piece.source](piece.from.getTime(), 1) === piece.to.getTime() ? piece.from : undefined;
}

/** The pieces whose weighted counts add up to the plays in [start, end). */
export function windowPieces(start: Date, end: Date): Piece[] {
  const [s, e] = [start.getTime(), end.getTime()];
  if (e <= s) return [];
  if (e - s < RAW_ONLY_MS) return [{ source: 'raw', from: start, to: end, weight: 1 }];
  const monthUnits = new Map<number, number>();
  const dayUnits = new Map<number, number>();
  const raw: Piece[] = [];
  const edgeYear = (t: number, weight: number): number => {
    const day = nearest(days, t);
    const month = nearest(months, day);
    const year = nearest(years, month);
    raw.push(...signedRange('raw', day, t, weight));
    addUnits(dayUnits, days, month, day, weight);
    addUnits(monthUnits, months, year, month, weight);
    return year;
  };
  const startYear = edgeYear(s, -1);
  const endYear = edgeYear(e, 1);
  return [...signedRange('y', startYear, endYear, 1), ...toPieces('m', monthUnits, months), ...toPieces('d', dayUnits, days), ...raw];
}

const QUARTER_MS = 15 * 60_000;

/**
 * The quarter hours wholly inside [start, end), read from the hourly rollup, and the raw plays
 * in the partial quarters at its edges (none when the edges are on quarter hours, as local
 * midnights are in every zone offset by a multiple of 15 minutes).
 */
export function quarterSpan(start: Date, end: Date): { from: Date; to: Date; raw: Piece[] } {
  const [s, e] = [start.getTime(), end.getTime()];
  const from = Math.ceil(s / QUARTER_MS) * QUARTER_MS;
  const to = Math.floor(e / QUARTER_MS) * QUARTER_MS;
  if (to <= from) return { from: start, to: start, raw: signedRange('raw', s, e, 1) };
  return { from: new Date(from), to: new Date(to), raw: [...signedRange('raw', s, from, 1), ...signedRange('raw', to, e, 1)] };
}
