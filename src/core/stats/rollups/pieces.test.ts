import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededPicker } from '../../../toolkit/fuzz-testing.ts';
import { onePeriod, quarterSpan, windowPieces, type Piece } from './pieces.ts';

const DAY_MS = 86_400_000;
const START_OF_DATA = Date.UTC(2019, 0, 1);
const SPAN_MS = 6 * 365 * DAY_MS;

/** The UTC period a play falls in, as the fold files it. */
function periodOf(grain: 'y' | 'm' | 'd', ms: number): number {
  const date = new Date(ms);
  if (grain === 'y') return Date.UTC(date.getUTCFullYear(), 0, 1);
  if (grain === 'm') return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** What the rollups and the raw history would answer for the pieces: weight × plays in each. */
function weightedCount(pieces: Piece[], plays: number[]): number {
  let total = 0;
  for (const piece of pieces) {
    const [from, to] = [piece.from.getTime(), piece.to.getTime()];
    // A rollup row counts the plays of its whole period: it is read when the period starts in the piece.
    const filedAt = (ms: number) => (piece.source === 'raw' ? ms : periodOf(piece.source, ms));
    total += piece.weight * plays.filter((ms) => filedAt(ms) >= from && filedAt(ms) < to).length;
  }
  return total;
}

test('weighted pieces count exactly the plays of any window', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const { int, pick } = seededPicker(seed);
    const plays = Array.from({ length: 400 }, () => START_OF_DATA + int(SPAN_MS));
    const start = START_OF_DATA + int(SPAN_MS) - DAY_MS;
    // Short, month-long, year-long and multi-year windows, on and off round boundaries.
    const length = pick([int(3 * DAY_MS), int(40 * DAY_MS), 365 * DAY_MS + int(DAY_MS), int(SPAN_MS)]);
    const aligned = pick([0, 1]) ? Math.floor(start / 900_000) * 900_000 : start;
    const [s, e] = [aligned, aligned + length];
    const expected = plays.filter((ms) => ms >= s && ms < e).length;
    assert.equal(
      weightedCount(windowPieces(new Date(s), new Date(e)), plays),
      expected,
      `seed ${seed}: [${new Date(s).toISOString()}, ${new Date(e).toISOString()})`,
    );
  }
});

test('a calendar year in a zone is one year row and a few hours of raw plays at each end', () => {
  // 2026 in Asia/Tokyo: [2025-12-31T15:00Z, 2026-12-31T15:00Z).
  const pieces = windowPieces(new Date('2025-12-31T15:00:00Z'), new Date('2026-12-31T15:00:00Z'));
  assert.deepEqual(
    pieces.map((piece) => [piece.source, piece.from.toISOString(), piece.to.toISOString(), piece.weight]),
    [
      ['y', '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', 1],
      ['raw', '2025-12-31T15:00:00.000Z', '2026-01-01T00:00:00.000Z', 1],
      ['raw', '2026-12-31T15:00:00.000Z', '2027-01-01T00:00:00.000Z', -1],
    ],
  );
});

test('an edge costs a bounded number of rows however long the history', () => {
  for (let seed = 1; seed <= 200; seed++) {
    const { int } = seededPicker(seed);
    const start = START_OF_DATA + int(SPAN_MS);
    const pieces = windowPieces(new Date(start), new Date(start + 2 * DAY_MS + int(30 * SPAN_MS)));
    const units = (source: 'm' | 'd', ms: number) =>
      pieces.filter((piece) => piece.source === source).reduce((sum, piece) => sum + Math.round((piece.to.getTime() - piece.from.getTime()) / ms), 0);
    assert.ok(units('m', 28 * DAY_MS) <= 12, `seed ${seed}: at most 6 months per edge`);
    assert.ok(units('d', DAY_MS) <= 32, `seed ${seed}: at most 16 days per edge`);
    for (const raw of pieces.filter((piece) => piece.source === 'raw')) assert.ok(raw.to.getTime() - raw.from.getTime() <= DAY_MS / 2);
  }
});

test('quarter spans: whole quarter hours from the rollup, the partial ones raw', () => {
  const span = quarterSpan(new Date('2026-03-01T10:07:00Z'), new Date('2026-03-02T18:45:00Z'));
  assert.deepEqual([span.from.toISOString(), span.to.toISOString()], ['2026-03-01T10:15:00.000Z', '2026-03-02T18:45:00.000Z']);
  assert.deepEqual(
    span.raw.map((piece) => [piece.from.toISOString(), piece.to.toISOString()]),
    [['2026-03-01T10:07:00.000Z', '2026-03-01T10:15:00.000Z']],
  );
  const inside = quarterSpan(new Date('2026-03-01T10:01:00Z'), new Date('2026-03-01T10:14:00Z'));
  assert.equal(inside.from.getTime(), inside.to.getTime());
  assert.equal(inside.raw.length, 1);
});

test('onePeriod names the one UTC year, month or day a rollup piece covers, and nothing for wider pieces or raw plays', () => {
  const piece = (source: Piece['source'], from: string, to: string): Piece => ({ source, from: new Date(from), to: new Date(to), weight: 1 });
  assert.deepEqual(onePeriod(piece('y', '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z')), new Date('2025-01-01T00:00:00Z'));
  assert.deepEqual(onePeriod(piece('m', '2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z')), new Date('2024-02-01T00:00:00Z'));
  assert.deepEqual(onePeriod(piece('d', '2024-12-31T00:00:00Z', '2025-01-01T00:00:00Z')), new Date('2024-12-31T00:00:00Z'));
  assert.equal(onePeriod(piece('y', '2024-01-01T00:00:00Z', '2026-01-01T00:00:00Z')), undefined);
  assert.equal(onePeriod(piece('m', '2024-01-01T00:00:00Z', '2024-03-01T00:00:00Z')), undefined);
  assert.equal(onePeriod(piece('raw', '2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z')), undefined);
  // A calendar year in a zone east of UTC: its UTC year row and raw hours at each end.
  const pieces = windowPieces(new Date('2024-12-31T18:30:00Z'), new Date('2025-12-31T18:30:00Z'));
  assert.deepEqual(
    pieces.map((p) => [p.source, onePeriod(p)?.toISOString() ?? null]),
    [
      ['y', '2025-01-01T00:00:00.000Z'],
      ['raw', null],
      ['raw', null],
    ],
  );
});
