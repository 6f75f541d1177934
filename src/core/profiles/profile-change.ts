import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { invalidRequest } from '../../toolkit/errors.ts';
import type { ProfileChange } from '../auth/users.ts';
import { checkTimeZone, withTimeZone } from '../stats/time-zone.ts';

export const DISPLAY_NAME_MAX_LENGTH = 64;
export const AVATAR_MAX_LENGTH = 2048;

export interface ProfileInput {
  displayName?: string | null;
  avatar?: string | null;
  timeZone?: string;
}

function displayName(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  // Code points, so a name of emoji or CJK counts as people see it.
  const length = [...trimmed].length;
  if (length < 1 || length > DISPLAY_NAME_MAX_LENGTH) {
    throw invalidRequest(`displayName must be 1 to ${DISPLAY_NAME_MAX_LENGTH} characters (spaces around it do not count), or null to clear it`);
  }
  return trimmed;
}

function avatar(value: string | null): string | null {
  if (value === null) return null;
  if (value.length > AVATAR_MAX_LENGTH) throw invalidRequest(`avatar must be a URL of at most ${AVATAR_MAX_LENGTH} characters`);
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || value.trim() !== value) {
    throw invalidRequest('avatar must be an http:// or https:// URL, or null to clear it');
  }
  return value;
}

/**
 * The change an updateProfile input asks for, every field checked (400 naming what is wrong).
 * The time zone must also be one the database knows, as Wrapped will count days in it.
 */
export async function readProfileChange(db: Database, input: ProfileInput): Promise<ProfileChange> {
  if (input.displayName === undefined && input.avatar === undefined && input.timeZone === undefined) {
    throw invalidRequest('nothing to change: give displayName, avatar or timeZone');
  }
  const change: ProfileChange = {
    displayName: input.displayName === undefined ? undefined : displayName(input.displayName),
    avatar: input.avatar === undefined ? undefined : avatar(input.avatar),
  };
  if (input.timeZone !== undefined) {
    const zone = checkTimeZone(input.timeZone);
    await withTimeZone(zone, () => sql`select now() at time zone ${zone}`.execute(db));
    change.timezone = zone;
  }
  return change;
}
