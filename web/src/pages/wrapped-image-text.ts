/**
 * The text layout of the Wrapped image, apart from the canvas so it can be tested: the title, and
 * lines wrapped to a width given a function that measures text (the canvas's measureText).
 */
export type Measure = (text: string) => number;

/** "@alice's Wrapped 2025" for a calendar year; a rolling window's name is in the subtitle. A DID (no handle known) gets no "@". */
export function wrappedImageTitle(handle: string, period: string, year: number): string {
  const who = handle.startsWith('did:') ? handle : `@${handle}`;
  return `${who}'s Wrapped${period === 'year' ? ` ${year}` : ''}`;
}

/** `text` cut with an ellipsis to fit `width`. */
export function ellipsize(text: string, width: number, measure: Measure): string {
  if (measure(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && measure(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** The first line of `text` that fits `width`, breaking between words (inside a word only if it alone is too wide), and the rest. */
function takeLine(text: string, width: number, measure: Measure): [line: string, rest: string] {
  const words = text.split(' ');
  let line = words[0]!;
  if (measure(line) > width) {
    let cut = line.length - 1;
    while (cut > 1 && measure(line.slice(0, cut)) > width) cut--;
    return [line.slice(0, cut), text.slice(cut)];
  }
  let taken = 1;
  while (taken < words.length && measure(`${line} ${words[taken]}`) <= width) line = `${line} ${words[taken++]}`;
  return [line, words.slice(taken).join(' ')];
}

/** `text` on at most `maxLines` lines of `width`; only what does not fit on the last one is cut, with an ellipsis. */
export function wrapText(text: string, width: number, measure: Measure, maxLines = 2): string[] {
  const lines: string[] = [];
  let rest = text.trim().replace(/\s+/g, ' ');
  while (rest && lines.length < maxLines - 1) {
    const [line, next] = takeLine(rest, width, measure);
    lines.push(line);
    rest = next;
  }
  if (rest) lines.push(ellipsize(rest, width, measure));
  return lines;
}
