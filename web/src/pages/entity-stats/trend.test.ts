import { describe, expect, test } from 'vitest';
import { BOX, linePath, playsPaths, playsSummary, rankPath } from './trend.ts';

const top = BOX.pad;
const bottom = BOX.height - BOX.pad;

describe('trend paths', () => {
  test('a line runs from the left edge to the right, the high value at the top and the low at the bottom', () => {
    expect(linePath([0, 5, 10], 0, 10)).toBe(`M0 ${bottom} L300 ${(top + bottom) / 2} L600 ${top}`);
  });

  test('a missing value breaks the line; a point alone is a dot', () => {
    expect(linePath([1, undefined, 1, 1], 0, 1)).toBe(`M0 ${top}h0 M400 ${top} L600 ${top}`);
  });

  test('one month sits in the middle', () => {
    expect(linePath([3], 0, 3)).toBe(`M300 ${top}h0`);
  });

  test("the viewer's plays share everyone's scale, and are drawn only when present", () => {
    const months = [
      { month: '2026-10', plays: 4, viewerPlays: 2 },
      { month: '2026-11', plays: 0, viewerPlays: 0 },
    ];
    const paths = playsPaths(months);
    expect(paths.max).toBe(4);
    expect(paths.viewer).toBe(`M0 ${(top + bottom) / 2} L600 ${bottom}`);
    expect(playsPaths(months.map(({ month, plays }) => ({ month, plays }))).viewer).toBeUndefined();
    expect(playsPaths([{ month: '2026-11', plays: 0 }]).max).toBe(1);
  });

  test('rank 1 is at the top; months without a rank leave a gap; no rank at all is no chart', () => {
    const rank = rankPath([
      { month: '2026-09', plays: 3, rank: 1 },
      { month: '2026-10', plays: 0 },
      { month: '2026-11', plays: 1, rank: 3 },
    ]);
    expect(rank).toEqual({ path: `M0 ${top}h0 M600 ${bottom}h0`, worst: 3 });
    expect(rankPath([{ month: '2026-11', plays: 0 }])).toBeNull();
  });
});

describe('the chart in words', () => {
  test('span, total, busiest month and the viewer’s share', () => {
    const text = playsSummary([
      { month: '2026-10', plays: 4, viewerPlays: 1 },
      { month: '2026-11', plays: 2, viewerPlays: 1 },
    ]);
    expect(text).toMatch(/^Plays per month from October 2026 to November 2026: 6 in all, the most \(4\) in October 2026\. 2 of them yours\.$/);
  });

  test('no plays says so', () => {
    expect(playsSummary([{ month: '2026-11', plays: 0 }])).toBe('No plays from November 2026 to November 2026.');
  });
});
