/**
 * Avatars kept by Earshot: the picture at the URL a user gives is fetched once and stored
 * (user_avatars), and every profile, feed entry and search result then points at
 * `<public URL>/avatars/<user id>?v=<digest>`, so viewers' browsers only ever ask this server.
 */
import { createHash } from 'node:crypto';
import { invalidRequest } from '../../toolkit/errors.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { imageType } from '../../toolkit/image-type.ts';
import { isUuid } from '../../toolkit/uuid.ts';
import { AvatarFetchError, fetchAvatar } from './avatar-fetch.ts';

const avatarPath = (userId: string) => `/avatars/${userId}`;

/** The digest in the URL changes with the picture, so a cached old one is never shown for a new one. */
const digest = (data: Buffer) => createHash('sha256').update(data).digest('base64url').slice(0, 16);

/** Whether `url` is already where this server serves the user's avatar (a form sent back unchanged). */
export const isServedAvatar = (publicUrl: string, userId: string, url: string) => url.startsWith(`${publicUrl}${avatarPath(userId)}?`);

/**
 * Fetches and keeps the picture at `url` as the user's avatar; answers the URL to show it at.
 * A URL that gives no picture is the caller's mistake: 400 with the reason.
 */
export async function keepAvatar(ctx: AppContext, userId: string, url: string): Promise<string> {
  let data: Buffer;
  try {
    data = await fetchAvatar(url, { privateAddresses: ctx.config.avatarPrivateAddresses });
  } catch (error) {
    if (error instanceof AvatarFetchError) throw invalidRequest(`the avatar could not be fetched from ${new URL(url).host}: ${error.message}`);
    throw error;
  }
  const row = { source_url: url, data, updated_at: new Date() };
  await ctx.db
    .insertInto('user_avatars')
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
  return `${ctx.config.publicUrl}${avatarPath(userId)}?v=${digest(data)}`;
}

export async function forgetAvatar(db: Database, userId: string): Promise<void> {
  await db.deleteFrom('user_avatars').where('user_id', '=', userId).execute();
}

/** The kept picture of a user, served at /avatars/<user id> without credentials (profiles are public), or null. */
export async function storedAvatar(db: Database, userId: string): Promise<{ data: Buffer; contentType: string; etag: string } | null> {
  if (!isUuid(userId)) return null;
  const row = await db.selectFrom('user_avatars').select(['data', 'etag']).where('user_id', '=', userId.toLowerCase()).executeTakeFirst();
  const contentType = row && imageType(row.data);
  return row && contentType ? { data: row.data, contentType, etag: row.etag } : null;
}
