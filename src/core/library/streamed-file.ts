/**
 * A file's bytes for a player, as a protocol answers them: the status a Range gave (200 whole, 206 a
 * part, 416 a Range the file cannot satisfy, RFC 9110), the type, the length and range headers, and
 * the bytes. Subsonic's stream and download answer one (adapters/subsonic/method.ts SubsonicBinary).
 */
export interface StreamedFile {
  status: 200 | 206 | 416;
  contentType: string;
  headers: Record<string, string>;
  body: NodeJS.ReadableStream | Buffer;
}
