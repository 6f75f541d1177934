import fs from 'node:fs';

/**
 * Bytes as UTF-8 text chunks, read with constant memory; a leading BOM is
 * dropped. `onBytes` hears how many bytes each chunk consumed, for progress.
 */
export async function* textChunks(buffers: AsyncIterable<Buffer>, onBytes: (bytes: number) => void = () => {}): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const buffer of buffers) {
    onBytes(buffer.length);
    const chunk = decoder.decode(buffer, { stream: true });
    if (chunk) yield chunk;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** A file as text chunks (textChunks). */
export function fileTextChunks(file: string, onBytes?: (bytes: number) => void): AsyncGenerator<string> {
  return textChunks(fs.createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>, onBytes);
}
