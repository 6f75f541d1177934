/**
 * JSON for an HTTP header (Dropbox-API-Arg, Dropbox-API-Result): header values are ASCII, so
 * Dropbox wants every character past 0x7E written as a \uXXXX escape (UTF-16 code units, which
 * JSON reads back as the same string).
 */
export function headerJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
