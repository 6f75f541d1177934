import { Type } from '@sinclair/typebox';
import { invalidRequest } from '../api/errors.ts';

export const TimeZoneParam = Type.Optional(
  Type.String({ minLength: 1, maxLength: 64, description: "IANA time zone, e.g. Europe/Berlin; default the user's setting, else UTC" }),
);

/** PostgreSQL's error for a time zone it does not know. */
const UNKNOWN_TIME_ZONE = '22023';

/** The time zone to count days and hours in: the requested one (checked to be an IANA name), else the fallback. */
export function chooseTimeZone(requested: string | undefined, fallback = 'UTC'): string {
  if (requested === undefined) return fallback;
  try {
    new Intl.DateTimeFormat('en', { timeZone: requested });
  } catch {
    throw invalidRequest(`unknown time zone ${requested}; use an IANA name such as Europe/Berlin`);
  }
  return requested;
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
