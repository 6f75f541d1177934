import { MAX_SUBMITTED_DEPTH, utf8Length } from '../listen-rules.ts';
import { ImportFormatError } from './records.ts';

/**
 * A record's text is not kept past this many bytes: an export record is a few
 * hundred bytes, and the listen rules keep no more than 64 KiB of it, so a
 * larger one is ignored without being held, parsed or sent.
 */
export const MAX_RECORD_BYTES = 256 * 1024;
/**
 * Nesting beyond the listen rules' depth (one more for the record itself) is
 * ignored before parsing, so nothing downstream that recurses (JSON.stringify)
 * ever meets a 5,000-deep record.
 */
export const MAX_RECORD_DEPTH = MAX_SUBMITTED_DEPTH + 1;

/**
 * A top-level value of a JSON array or JSON Lines file, by 1-based record
 * number: its source text, or why it is not worth parsing.
 */
export type JsonRecordText = { record: number; text: string } | { record: number; problem: string };

const isWhitespace = (char: string) => char === ' ' || char === '\n' || char === '\r' || char === '\t';

/** String, escape and bracket state of JSON text fed one character at a time; no recursion, any depth. */
class JsonNesting {
  depth = 0;
  /** The greatest depth since the last reset. */
  deepest = 0;
  inString = false;
  private escaped = false;

  step(char: string): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (char === '\\') this.escaped = true;
      else if (char === '"') this.inString = false;
    } else if (char === '"') this.inString = true;
    else if (char === '{' || char === '[') this.deepest = Math.max(this.deepest, ++this.depth);
    else if (char === '}' || char === ']') this.depth--;
  }

  scan(text: string): void {
    for (let i = 0; i < text.length; i++) this.step(text[i]!);
  }
}

/** The text of one record as it arrives in pieces, dropped once it passes MAX_RECORD_BYTES. */
class RecordText {
  private parts: string[] = [];
  private bytes = 0;
  /** Whether anything but white space was added. */
  filled = false;

  add(piece: string): void {
    if (!piece) return;
    this.filled ||= piece.trim() !== '';
    this.bytes += utf8Length(piece);
    if (this.bytes <= MAX_RECORD_BYTES) this.parts.push(piece);
    else this.parts = [];
  }

  clear(): void {
    this.parts = [];
    this.bytes = 0;
    this.filled = false;
  }

  /** The record (its depth measured by the caller), leaving the buffer clear for the next. */
  take(record: number, depth: number): JsonRecordText {
    const { parts, bytes } = this;
    this.clear();
    if (bytes > MAX_RECORD_BYTES) return { record, problem: `record is larger than ${MAX_RECORD_BYTES} bytes` };
    if (depth > MAX_RECORD_DEPTH) return { record, problem: `record is nested deeper than ${MAX_SUBMITTED_DEPTH} levels` };
    return { record, text: parts.join('').trim() };
  }
}

/**
 * The elements of a top-level JSON array, one at a time, without holding the
 * whole array: only string, escape and nesting state is tracked, and each
 * element's text is handed out as soon as it closes.
 */
export async function* jsonArrayElements(chunks: AsyncIterable<string>): AsyncGenerator<JsonRecordText> {
  const nesting = new JsonNesting();
  const element = new RecordText();
  let started = false;
  let closed = false;
  let record = 0;
  for await (const chunk of chunks) {
    // Where the current element's text not yet added to `element` starts in this chunk.
    let elementStart = element.filled ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const char = chunk[i]!;
      if (!started || closed) {
        if (isWhitespace(char)) continue;
        if (closed) throw new ImportFormatError(record, 'unexpected text after the end of the JSON array');
        if (char !== '[') throw new ImportFormatError(1, 'not a JSON array (the file should start with "[")');
        started = true;
        nesting.step(char);
        nesting.deepest = 1;
        continue;
      }
      const atTop = !nesting.inString && nesting.depth === 1;
      if (atTop && (char === ',' || char === ']')) {
        if (elementStart >= 0) element.add(chunk.slice(elementStart, i));
        elementStart = -1;
        if (element.filled) yield element.take(++record, nesting.deepest - 1);
        else if (char === ',') throw new ImportFormatError(record + 1, 'empty element in the JSON array');
        nesting.deepest = 1;
        if (char === ']') {
          nesting.step(char);
          closed = true;
        }
        continue;
      }
      if (atTop && elementStart < 0 && !isWhitespace(char)) {
        elementStart = i;
        element.filled = true;
      }
      nesting.step(char);
    }
    if (elementStart >= 0) element.add(chunk.slice(elementStart));
  }
  if (!started) throw new ImportFormatError(1, 'the file is empty');
  if (!closed) throw new ImportFormatError(record + 1, 'the JSON array is not closed (is the file truncated?)');
}

/** The non-blank lines of a JSON Lines text stream (LF or CRLF), however long a line is. */
export async function* jsonLines(chunks: AsyncIterable<string>): AsyncGenerator<JsonRecordText> {
  let record = 0;
  let nesting = new JsonNesting();
  const line = new RecordText();
  const endLine = (): JsonRecordText | undefined => {
    const depth = nesting.deepest;
    nesting = new JsonNesting();
    if (line.filled) return line.take(++record, depth);
    line.clear();
    return undefined;
  };
  for await (const chunk of chunks) {
    for (let start = 0; start <= chunk.length; ) {
      const newline = chunk.indexOf('\n', start);
      const piece = chunk.slice(start, newline < 0 ? chunk.length : newline);
      nesting.scan(piece);
      line.add(piece);
      if (newline < 0) break;
      const done = endLine();
      if (done) yield done;
      start = newline + 1;
    }
  }
  const last = endLine();
  if (last) yield last;
}

/** The record's value, or undefined when its text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A container being read by jsonArraysAt: where it is (the object keys leading to it) and, for an object, its current key. */
interface Container {
  array: boolean;
  keys: readonly string[];
  wanted: boolean;
  expectKey: boolean;
  key: string | undefined;
}

/** Keys are only compared with a few short names; a longer one is cut, never held whole. */
const MAX_KEY_LENGTH = 64;

/**
 * The elements of every array at a wanted place in a JSON text (a `scrobbles`
 * list, or `recenttracks.track` of each page of a file of pages), numbered
 * from 1 across them all, without holding anything but the current element:
 * outside wanted arrays only the keys leading to each container are kept.
 * `wanted` gets the object keys leading to an array (array levels add none).
 */
export async function* jsonArraysAt(chunks: AsyncIterable<string>, wanted: (keys: readonly string[]) => boolean, what: string): AsyncGenerator<JsonRecordText> {
  const stack: Container[] = [];
  const element = new RecordText();
  let nesting: JsonNesting | undefined;
  let inString = false;
  let escaped = false;
  let key: string | undefined;
  let record = 0;
  let found = 0;
  for await (const chunk of chunks) {
    let elementStart = nesting ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const char = chunk[i]!;
      if (nesting) {
        if (nesting.inString || nesting.depth > 0 || (char !== ',' && char !== ']')) {
          nesting.step(char);
          continue;
        }
        element.add(chunk.slice(elementStart, i));
        elementStart = -1;
        yield element.take(++record, nesting.deepest);
        nesting = undefined;
        if (char === ']') stack.pop();
        continue;
      }
      const top = stack.at(-1);
      if (inString) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') {
          inString = false;
          if (key !== undefined && top) [top.key, top.expectKey, key] = [key, false, undefined];
          continue;
        }
        if (key !== undefined && key.length < MAX_KEY_LENGTH) key += char;
        continue;
      }
      if (top?.wanted && !isWhitespace(char) && char !== ',') {
        if (char === ']') {
          stack.pop();
          continue;
        }
        nesting = new JsonNesting();
        nesting.step(char);
        elementStart = i;
        element.filled = true;
        continue;
      }
      if (char === '"') {
        inString = true;
        if (top && !top.array && top.expectKey) key = '';
      } else if (char === '{' || char === '[') {
        const keys = top && !top.array && top.key !== undefined ? [...top.keys, top.key] : (top?.keys ?? []);
        const array = char === '[';
        const isWanted = array && wanted(keys);
        if (isWanted) found++;
        stack.push({ array, keys, wanted: isWanted, expectKey: !array, key: undefined });
      } else if (char === '}' || char === ']') {
        if (!stack.pop()) throw new ImportFormatError(record + 1, `unexpected "${char}": the JSON is not well formed`);
      } else if (char === ',' && top && !top.array) [top.expectKey, top.key] = [true, undefined];
    }
    if (nesting && elementStart >= 0) element.add(chunk.slice(elementStart));
  }
  if (stack.length > 0 || nesting) throw new ImportFormatError(record + 1, 'the JSON is not closed (is the file truncated?)');
  if (found === 0) throw new ImportFormatError(1, `no ${what} list in the file`);
}
