import { describe, expect, test } from 'vitest';
import { busiest, cellLabel, clockGrid } from './listening-clock.ts';

describe('listening clock', () => {
  test('fills the 7 × 24 grid from non-zero cells, Monday first', () => {
    const grid = clockGrid([
      { weekday: 0, hour: 4, count: 1 },
      { weekday: 6, hour: 23, count: 3 },
    ]);
    expect(grid.counts).toHaveLength(7);
    expect(grid.counts.every((hours) => hours.length === 24)).toBe(true);
    expect(grid.counts[0]![4]).toBe(1);
    expect(grid.counts[6]![23]).toBe(3);
    expect(grid.counts[3]![12]).toBe(0);
    expect(grid).toMatchObject({ max: 3, total: 4 });
  });

  test('names cells and the busiest one in words', () => {
    expect(cellLabel(0, 21, 3)).toBe('Mon 21:00 – 3 plays');
    expect(cellLabel(6, 7, 1)).toBe('Sun 07:00 – 1 play');
    expect(
      busiest([
        { weekday: 4, hour: 9, count: 2 },
        { weekday: 1, hour: 0, count: 5 },
      ]),
    ).toBe('Tue 00:00 – 5 plays');
    expect(busiest([])).toBeNull();
    expect(clockGrid([])).toMatchObject({ max: 0, total: 0 });
  });
});
