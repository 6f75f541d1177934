import { ImportFormatError } from './records.ts';

/**
 * Rows of an RFC 4180 CSV text stream: quoted fields may hold commas, quotes
 * ("") and line breaks; rows end with LF, CRLF or CR. Blank lines are skipped.
 */
export async function* csvRows(chunks: AsyncIterable<string>): AsyncGenerator<string[]> {
  let row: string[] = [];
  let field = '';
  let quoted = false;
  /** A quote just closed a quoted part, or just started an escaped "" pair. */
  let afterQuote = false;
  let afterCr = false;
  let rows = 0;
  const endRow = () => {
    row.push(field);
    const done = row;
    row = [];
    field = '';
    return done.length === 1 && done[0] === '' ? null : done;
  };
  for await (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) {
      const char = chunk[i]!;
      if (afterCr) {
        afterCr = false;
        if (char === '\n') continue;
      }
      if (quoted) {
        if (char === '"') {
          quoted = false;
          afterQuote = true;
        } else field += char;
        continue;
      }
      // A quote opens a quoted part only at the start of a field; elsewhere (12" Mix) it is text.
      if (char === '"' && (afterQuote || field === '')) {
        if (afterQuote) field += '"';
        quoted = true;
        afterQuote = false;
        continue;
      }
      afterQuote = false;
      if (char === ',') {
        row.push(field);
        field = '';
      } else if (char === '\n' || char === '\r') {
        afterCr = char === '\r';
        const done = endRow();
        if (done) {
          rows++;
          yield done;
        }
      } else field += char;
    }
  }
  if (quoted) throw new ImportFormatError(rows + 1, 'a quoted field is not closed before the end of the file');
  const last = endRow();
  if (last) yield last;
}
