import fs from 'node:fs';

/**
 * A file as UTF-8 text chunks, read with constant memory; a leading BOM is
 * dropped. `onBytes` hears how many bytes each chunk consumed, for progress.
 */
export async function* fileTextChunks(file: string, onBytes: (bytes: number) => void = () => {}): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const buffer of fs.createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    onBytes(buffer.length);
    const chunk = decoder.decode(buffer, { stream: true });
    if (chunk) yield chunk;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** Lines of a text stream, without their LF or CRLF endings. */
export async function* textLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let pending = '';
  for await (const chunk of chunks) {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
  }
  if (pending) yield pending.endsWith('\r') ? pending.slice(0, -1) : pending;
}
