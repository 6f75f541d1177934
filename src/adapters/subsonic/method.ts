import type { AppContext } from '../../core/context.ts';
import type { Viewer } from '../../core/auth/viewer.ts';
import type { StreamedFile } from '../../core/library/streamed-file.ts';

/**
 * One Subsonic REST method (`/rest/<name>` and `/rest/<name>.view`, GET or POST form). The
 * router authenticates the caller, reads the parameters and writes the answer in the format the
 * client asked for (`f=xml|json|jsonp`); a method only turns parameters into a payload, or
 * throws a LibraryError (library/errors.ts) that becomes a Subsonic error.
 */
export interface SubsonicMethod {
  name: string;
  handler(request: SubsonicRequest): Promise<SubsonicPayload | SubsonicBinary>;
}

export interface SubsonicRequest {
  ctx: AppContext;
  /** The authenticated user (`u` = handle, password = one of their API keys). */
  viewer: Viewer;
  params: SubsonicParams;
  /** The `c` parameter: the client's name. */
  client: string;
  /** The raw Range header, for stream and download. */
  range: string | undefined;
  /** The client's If-None-Match: a cover it already holds is answered 304 unread. */
  ifNoneMatch: string | undefined;
}

/**
 * Request parameters (query string and form body together), read as Navidrome reads them: an empty
 * value is no value, and a list parameter may repeat (`id=1&id=2`) or list its values with commas.
 */
export interface SubsonicParams {
  /** The first value, or undefined (also for an empty one). */
  get(name: string): string | undefined;
  /** The first value as sent, an empty one included: text an empty value clears (a playlist's comment). */
  text(name: string): string | undefined;
  /** Every value, in order: repeated parameters and comma lists, empty values left out. */
  all(name: string): string[];
  /** The first value; a missing or empty one is error 10. */
  required(name: string): string;
  /** An integer, or undefined when absent, empty or malformed (Navidrome falls back to the default). */
  integer(name: string): number | undefined;
  /** A boolean as Go's strconv.ParseBool reads it; a malformed one is error 0 naming the parameter. */
  boolean(name: string): boolean | undefined;
}

/**
 * What a method answers: members merged into `subsonic-response` beside `status` and
 * `version`. In JSON they are written as they are; in XML objects become elements, primitive
 * members attributes, arrays repeated elements, a member named `value` the element's text, and a
 * TextElement (format.ts) a child element holding text.
 */
export type SubsonicPayload = Record<string, unknown>;

/** Bytes instead of a response document: stream, download, getCoverArt. */
export interface SubsonicBinary extends StreamedFile {
  kind: 'binary';
}

export function defineSubsonicMethod(name: string, handler: SubsonicMethod['handler']): SubsonicMethod {
  return { name, handler };
}
