/**
 * A bounded multipart/form-data reader (RFC 7578) for webhooks that post their JSON as a form
 * field beside a file (Plex: `payload` and a `thumb` picture; Emby: `data`). Fields are kept, up
 * to a size each; file parts are read past and dropped as they stream, so a large picture costs
 * no memory. The whole body is capped too: a sender cannot make the server read forever.
 */
import type { FastifyInstance } from 'fastify';
import { XrpcError } from '../../toolkit/errors.ts';

export interface MultipartLimits {
  /** Bytes of the whole body, files included. */
  maxBodyBytes: number;
  /** Bytes of one field (a part without a filename). */
  maxFieldBytes: number;
}

/** Bytes of a part's header block (Content-Disposition, Content-Type): far more than any sender writes. */
const MAX_HEADER_BYTES = 16 * 1024;

const tooLarge = (what: string) => new XrpcError(413, 'PayloadTooLarge', `${what} is too large`);
const malformed = (problem: string) => new XrpcError(400, 'InvalidRequest', `malformed multipart body: ${problem}`);

/** The boundary a Content-Type names (1 to 70 characters, quoted or not), or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType ?? '');
  return match?.[1] ?? match?.[2];
}

/** The `name` and whether a `filename` is given, from a part's Content-Disposition. */
function disposition(headers: string): { name: string | undefined; file: boolean } {
  const line = headers.split('\r\n').find((header) => /^content-disposition\s*:/i.test(header)) ?? '';
  const name = /;\s*name="([^"]*)"/i.exec(line)?.[1] ?? /;\s*name=([^\s;]+)/i.exec(line)?.[1];
  return { name, file: /;\s*filename\*?=/i.test(line) };
}

type State = 'preamble' | 'delimiter' | 'headers' | 'body' | 'done';

/** Fed the body chunk by chunk; `fields` holds every non-file part's text once `end` has passed. */
export class MultipartReader {
  readonly fields = new Map<string, string>();
  /** `\r\n--boundary`: the body is read as if it began with a line break, so the first delimiter looks like the others. */
  private readonly delimiter: Buffer;
  private buffer = Buffer.from('\r\n');
  private state: State = 'preamble';
  private total = 0;
  private part: { name: string | undefined; file: boolean; chunks: Buffer[]; size: number } | undefined;

  constructor(
    boundary: string,
    private readonly limits: MultipartLimits,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.total > this.limits.maxBodyBytes) throw tooLarge('the body');
    if (this.state === 'done') return; // the epilogue, ignored
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.step()) {}
  }

  end(): Map<string, string> {
    if (this.state !== 'done') throw malformed('it ends before its closing boundary');
    return this.fields;
  }

  /** One move of the state machine; false when it needs more bytes. */
  private step(): boolean {
    switch (this.state) {
      case 'preamble':
      case 'body': {
        const at = this.buffer.indexOf(this.delimiter);
        // Bytes that cannot begin a delimiter are settled now; the rest waits for the next chunk.
        const settled = at === -1 ? Math.max(0, this.buffer.length - (this.delimiter.length - 1)) : at;
        if (this.state === 'body') this.take(this.buffer.subarray(0, settled));
        this.buffer = this.buffer.subarray(at === -1 ? settled : at + this.delimiter.length);
        if (at === -1) return false;
        if (this.state === 'body') this.finishPart();
        this.state = 'delimiter';
        return true;
      }
      case 'delimiter': {
        if (this.buffer.length < 2) return false;
        const next = this.buffer.subarray(0, 2).toString('latin1');
        if (next === '--') {
          this.state = 'done';
          return false;
        }
        if (next !== '\r\n') throw malformed('a boundary is not followed by a line break');
        this.state = 'headers';
        return true;
      }
      case 'headers': {
        // The buffer starts with the delimiter's line break: "\r\n\r\n" ends the block (at 0 when it is empty).
        const end = this.buffer.indexOf('\r\n\r\n');
        if (end === -1) {
          if (this.buffer.length > MAX_HEADER_BYTES) throw tooLarge("a part's headers");
          return false;
        }
        this.part = { ...disposition(this.buffer.subarray(2, end).toString('utf8')), chunks: [], size: 0 };
        this.buffer = this.buffer.subarray(end + 4);
        this.state = 'body';
        return true;
      }
      case 'done':
        return false;
    }
  }

  private take(bytes: Buffer): void {
    const part = this.part!;
    if (part.file || bytes.length === 0) return;
    part.size += bytes.length;
    if (part.size > this.limits.maxFieldBytes) throw tooLarge(`the field ${part.name ?? '(unnamed)'}`);
    part.chunks.push(Buffer.from(bytes));
  }

  private finishPart(): void {
    const part = this.part!;
    if (!part.file && part.name !== undefined) this.fields.set(part.name, Buffer.concat(part.chunks).toString('utf8'));
    this.part = undefined;
  }
}

/**
 * Makes `scope` read multipart/form-data bodies into a Map of their fields, within `limits`.
 * Fastify's bodyLimit does not apply to a parser that takes the stream, so the reader's own caps do.
 */
export function acceptMultipartFields(scope: FastifyInstance, limits: MultipartLimits): void {
  scope.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    const boundary = multipartBoundary(request.headers['content-type']);
    if (!boundary) return done(malformed('the Content-Type names no boundary'), undefined);
    const reader = new MultipartReader(boundary, limits);
    let settled = false;
    const settle = (error: Error | null, body?: Map<string, string>) => {
      if (settled) return;
      settled = true;
      payload.removeAllListeners('data');
      done(error, body);
    };
    payload.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (error) {
        settle(error as Error);
      }
    });
    payload.on('end', () => {
      try {
        settle(null, reader.end());
      } catch (error) {
        settle(error as Error);
      }
    });
    payload.on('error', (error) => settle(error));
  });
}
