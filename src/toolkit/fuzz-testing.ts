/**
 * Seeded randomness for property tests: a failure names its seed and replays
 * exactly, with no dependency on a fuzzing library.
 */

/** mulberry32: a small, fast generator of numbers in [0, 1); the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded generator with the picks property tests need: whole numbers, an element, a shuffled copy. */
export function seededPicker(seed: number) {
  const next = seededRandom(seed);
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]) => items[int(items.length)]!;
  return { next, int, pick, shuffle: <T>(items: readonly T[]) => shuffled(items, next) };
}

/** A shuffled copy (Fisher–Yates) driven by `next`. */
export function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** Code-point ranges whose characters take 1, 2, 3 and 4 bytes in UTF-8 (letters, so names fold to themselves). */
const RANGES: Record<1 | 2 | 3 | 4, [number, number]> = {
  1: [0x61, 0x7a],
  2: [0x0430, 0x044f],
  3: [0x4e00, 0x9fff],
  4: [0x20000, 0x2a6df],
};

export type Utf8Width = keyof typeof RANGES;

/** `length` random characters (code points), each `width` bytes in UTF-8. */
export function randomText(random: () => number, length: number, width: Utf8Width): string {
  const [low, high] = RANGES[width];
  let text = '';
  for (let i = 0; i < length; i++) text += String.fromCodePoint(low + Math.floor(random() * (high - low + 1)));
  return text;
}
