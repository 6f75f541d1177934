import { Type } from '@sinclair/typebox';
import { invalidRequest } from '../../toolkit/errors.ts';

export const TimeZoneParam = Type.Optional(
  Type.String({ minLength: 1, maxLength: 64, description: "IANA time zone, e.g. Europe/Berlin; default the user's setting, else UTC" }),
);

/** PostgreSQL's error for a time zone it does not know. */
const UNKNOWN_TIME_ZONE = '22023';

/** Zone names as ICU resolves them; aliases (Asia/Kolkata, US/Eastern) resolve to one of these. UTC and its aliases resolve to 'UTC', which the list leaves out. */
const SUPPORTED_TIME_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);

/**
 * An IANA time zone name (any case, aliases too), spelt as ICU spells it when only the case
 * differs; 400 naming it otherwise. Bare offsets are refused: PostgreSQL reads them with POSIX signs.
 */
export function checkTimeZone(name: string): string {
  let resolved: string | undefined;
  try {
    resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    // An unknown name; refused below.
  }
  if (resolved === undefined || !SUPPORTED_TIME_ZONES.has(resolved)) {
    throw invalidRequest(`unknown time zone ${name}; use an IANA name such as Europe/Berlin`);
  }
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

/** The time zone to count days and hours in: the requested one (checked to be an IANA name), else the fallback. */
export function chooseTimeZone(requested: string | undefined, fallback = 'UTC'): string {
  return requested === undefined ? fallback : checkTimeZone(requested);
}

/** Runs a query that uses a time zone, answering 400 if the database's zone list lacks one Intl knows. */
export async function withTimeZone<T>(timeZone: string, query: () => Promise<T>): Promise<T> {
  try {
    return await query();
  } catch (error) {
    if ((error as { code?: string }).code === UNKNOWN_TIME_ZONE) throw invalidRequest(`unknown time zone ${timeZone}`);
    throw error;
  }
}
