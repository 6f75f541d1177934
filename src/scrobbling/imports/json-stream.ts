import { ImportFormatError } from './records.ts';

/** A top-level value of a JSON array or JSON Lines file: its 1-based record number and source text. */
export interface JsonRecordText {
  record: number;
  text: string;
}

const isWhitespace = (char: string) => char === ' ' || char === '\n' || char === '\r' || char === '\t';

/**
 * The elements of a top-level JSON array, one at a time, without holding the
 * whole array: only string, escape and nesting state is tracked, and each
 * element's text is handed out as soon as it closes.
 */
export async function* jsonArrayElements(chunks: AsyncIterable<string>): AsyncGenerator<JsonRecordText> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let started = false;
  let closed = false;
  let element: string[] = [];
  let inElement = false;
  let record = 0;
  for await (const chunk of chunks) {
    let elementStart = inElement ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const char = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') inString = false;
        continue;
      }
      if (!started || closed) {
        if (isWhitespace(char)) continue;
        if (closed) throw new ImportFormatError(record, 'unexpected text after the end of the JSON array');
        if (char !== '[') throw new ImportFormatError(1, 'not a JSON array (the file should start with "[")');
        started = true;
        depth = 1;
        continue;
      }
      if (depth === 1 && (char === ',' || char === ']')) {
        if (elementStart >= 0) element.push(chunk.slice(elementStart, i));
        const text = element.join('').trim();
        element = [];
        elementStart = -1;
        inElement = false;
        if (text) yield { record: ++record, text };
        else if (char === ',') throw new ImportFormatError(record + 1, 'empty element in the JSON array');
        if (char === ']') {
          depth = 0;
          closed = true;
        }
        continue;
      }
      if (depth === 1 && !inElement && !isWhitespace(char)) {
        elementStart = i;
        inElement = true;
      }
      if (char === '"') inString = true;
      else if (char === '{' || char === '[') depth++;
      else if (char === '}' || char === ']') depth--;
    }
    if (inElement) element.push(chunk.slice(elementStart));
  }
  if (!started) throw new ImportFormatError(1, 'the file is empty');
  if (!closed) throw new ImportFormatError(record + 1, 'the JSON array is not closed (is the file truncated?)');
}

/** The non-blank lines of a JSON Lines file. */
export async function* jsonLines(lines: AsyncIterable<string>): AsyncGenerator<JsonRecordText> {
  let record = 0;
  for await (const line of lines) {
    const text = line.trim();
    if (text) yield { record: ++record, text };
  }
}

/** The record's value, or undefined when its text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
