import { invalidRequest } from '../../../toolkit/errors.ts';
import type { ListenPosition } from '../view.ts';

const POSITION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** An opaque page cursor: the position of the last scrobble shown. */
export function encodeCursor(position: ListenPosition): string {
  return Buffer.from(`${position.listenedAt}|${position.id}`).toString('base64url');
}

/** The position a cursor stands for; 400 InvalidRequest for anything encodeCursor did not produce. */
export function decodeCursor(cursor: string): ListenPosition {
  const match = BASE64URL.test(cursor) ? POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  if (!match || Number.isNaN(Date.parse(match[1]!))) throw invalidRequest('cursor is malformed');
  return { listenedAt: match[1]!, id: match[2]! };
}
