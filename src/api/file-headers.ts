/**
 * Headers for every response whose bytes a user or a file's author chose (covers, streamed and
 * downloaded files): the browser must take the declared type as final (no sniffing a "picture"
 * into HTML), and a response opened as a page of its own runs no script and loads nothing, in an
 * origin of its own. Set at the routes themselves, whatever headers the server adds globally.
 */
import { FILE_CSP } from './security-headers.ts';

export const FILE_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': FILE_CSP,
};
