import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonArrayElements, jsonLines, MAX_RECORD_BYTES, MAX_RECORD_DEPTH, type JsonRecordText } from './json-stream.ts';
import { seededPicker as random } from '../../../toolkit/fuzz-testing.ts';

type Random = ReturnType<typeof random>;

/** String pieces that trip naive scanners: quotes, escapes, brackets and separators inside strings, surrogates. */
const STRING_PIECES = ['a', 'Ü', '漢', '😀', '\\"', '\\\\', '\\n', '\\u0041', '\\ud800', '\\udc00x', '[', ']', '{', '}', ',', ':', ' ', '\\/', '\\\\\\"'];
const SCALARS = ['0', '-1.5e3', 'true', 'false', 'null', '1e400', '""'];
/** White space JSON allows between tokens; no line breaks, so a value is also one JSON Lines line. */
const SPACE = ['', '', ' ', '\t', '  '];

/** JSON text for a random value and its nesting depth, built as text: JSON.stringify would recurse. */
function value(rng: Random, budget: number): { text: string; depth: number } {
  if (budget <= 0 || rng.next() < 0.3) {
    if (rng.next() < 0.5) return { text: rng.pick(SCALARS), depth: 0 };
    return { text: `"${Array.from({ length: rng.int(6) }, () => rng.pick(STRING_PIECES)).join('')}"`, depth: 0 };
  }
  const children = Array.from({ length: rng.int(4) }, () => value(rng, budget - 1));
  const depth = 1 + Math.max(0, ...children.map((child) => child.depth));
  const gap = () => rng.pick(SPACE);
  if (rng.next() < 0.5) return { text: `[${gap()}${children.map((child) => child.text).join(`${gap()},${gap()}`)}${gap()}]`, depth };
  const members = children.map((child, i) => `"k${i}${rng.pick(STRING_PIECES)}"${gap()}:${gap()}${child.text}`);
  return { text: `{${gap()}${members.join(`,${gap()}`)}${gap()}}`, depth };
}

/** Now and then a value wrapped far deeper than anything that recurses could follow. */
function record(rng: Random): { text: string; depth: number } {
  const inner = value(rng, 5);
  const wraps = rng.next() < 0.15 ? rng.pick([MAX_RECORD_DEPTH, 100, 5000, 50_000]) : 0;
  const open = Array.from({ length: wraps }, (_, i) => (i % 2 ? '[' : '{"d":')).join('');
  const close = Array.from({ length: wraps }, (_, i) => (i % 2 ? ']' : '}'))
    .reverse()
    .join('');
  return { text: `${open}${inner.text}${close}`, depth: inner.depth + wraps };
}

async function* chunked(text: string, rng: Random): AsyncGenerator<string> {
  for (let i = 0; i < text.length; ) {
    const size = 1 + rng.int(rng.next() < 0.5 ? 8 : 4096);
    yield text.slice(i, i + size);
    i += size;
  }
}

async function collect(items: AsyncIterable<JsonRecordText>): Promise<JsonRecordText[]> {
  const all: JsonRecordText[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** What the reader must make of one record: its exact text when within bounds, else the depth problem. */
function expected(found: { text: string; depth: number }, index: number): JsonRecordText {
  if (found.depth > MAX_RECORD_DEPTH) return { record: index + 1, problem: `record is nested deeper than ${MAX_RECORD_DEPTH - 1} levels` };
  return { record: index + 1, text: found.text };
}

describe('JSON streaming', () => {
  it('splits any array into its elements, whatever the nesting, escapes and chunking, without a stack overflow', async () => {
    for (let seed = 1; seed <= 150; seed++) {
      const rng = random(seed);
      const records = Array.from({ length: 1 + rng.int(12) }, () => record(rng));
      const text = `${rng.pick(SPACE)}[${records.map((r) => `${rng.pick(['', '\n', ' \r\n '])}${r.text}`).join(',')}\n]\n`;
      // The generator's own check: the text is JSON, so JSON.parse is the reference for every element within bounds.
      const parsed = JSON.parse(text) as unknown[];
      assert.equal(parsed.length, records.length, `seed ${seed}`);
      const found = await collect(jsonArrayElements(chunked(text, rng)));
      assert.deepEqual(found, records.map(expected), `seed ${seed}`);
      found.forEach((element, i) => {
        if ('text' in element) assert.equal(JSON.stringify(JSON.parse(element.text)), JSON.stringify(parsed[i]), `seed ${seed} record ${i + 1}`);
      });
    }
  });

  it('reads the same records as JSON Lines, with LF or CRLF and blank lines', async () => {
    for (let seed = 1000; seed <= 1150; seed++) {
      const rng = random(seed);
      const records = Array.from({ length: 1 + rng.int(12) }, () => record(rng));
      const text = records.map((r) => `${r.text}${rng.pick(['\n', '\r\n', '\n\n', ' \r\n\r\n'])}`).join('');
      assert.deepEqual(await collect(jsonLines(chunked(text, rng))), records.map(expected), `seed ${seed}`);
    }
  });

  it('drops a record past the byte cap without holding it, in either layout', async () => {
    const huge = `{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`;
    const small = '{"a":1}';
    const problem = `record is larger than ${MAX_RECORD_BYTES} bytes`;
    const rng = random(7);
    assert.deepEqual(await collect(jsonArrayElements(chunked(`[${small},${huge},${small}]`, rng))), [
      { record: 1, text: small },
      { record: 2, problem },
      { record: 3, text: small },
    ]);
    assert.deepEqual(await collect(jsonLines(chunked(`${small}\n${huge}\n${small}`, rng))), [
      { record: 1, text: small },
      { record: 2, problem },
      { record: 3, text: small },
    ]);
  });
});
