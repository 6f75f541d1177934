import { sql } from 'kysely';
import { sha256Hex } from '../src/core/auth/hashing.ts';
import { authenticateApiKey } from '../src/core/auth/index.ts';
import { createAudioscrobblerSession, sessionUser } from '../src/adapters/audioscrobbler/sessions.ts';
import { createLastfmSession, findLastfmSession } from '../src/adapters/lastfm/sessions.ts';
import { benchTargets, compare } from './harness.ts';

/**
 * The credential checks every Last.fm 2.0 write and Audioscrobbler submission pays: API key,
 * then session key (or session id), among many stored sessions, against hand-written SQL.
 */
export async function lastfmAuthBenchmark(): Promise<void> {
  const count = Number(process.env.BENCH_SESSIONS ?? 100_000);
  console.log(`lastfm auth: API key + session lookup among ${count} Last.fm sessions and ${count} Audioscrobbler sessions`);
  for await (const target of benchTargets()) {
    try {
      const { db } = target;
      const key = 'b'.repeat(32);
      const user = await db.insertInto('users').values({ did: 'did:plc:benchlastfm', handle: 'bench-lastfm' }).returning('id').executeTakeFirstOrThrow();
      const apiKey = await db
        .insertInto('api_keys')
        .values({ user_id: user.id, name: 'bench', key_hash: sha256Hex(key) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await sql`insert into lastfm_sessions (user_id, api_key_id, key_hash)
        select ${user.id}, ${apiKey.id}, md5('lastfm' || i) from generate_series(1, ${count}) i`.execute(db);
      await sql`insert into audioscrobbler_sessions (session_hash, user_id, api_key_id, expires_at)
        select md5('as' || i), ${user.id}, ${apiKey.id}, now() + interval '1 day' from generate_series(1, ${count}) i`.execute(db);
      const sessionKey = await createLastfmSession(db, user.id, apiKey.id);
      const sessionId = await createAudioscrobblerSession(db, user.id, apiKey.id);
      await sql`analyze`.execute(db);

      await compare(
        `${target.name} Last.fm API key + session: query layer`,
        async () => {
          const owner = await authenticateApiKey(db, key);
          return findLastfmSession(db, sessionKey, owner!.apiKeyId);
        },
        'raw SQL',
        async () => {
          const owner = await sql<{ id: string }>`select k.id from api_keys k join users u on u.id = k.user_id where k.key_hash = ${sha256Hex(key)}`.execute(
            db,
          );
          await sql`update api_keys set last_used_at = now()
            where id = ${owner.rows[0]!.id} and (last_used_at is null or last_used_at < now() - interval '1 minute')`.execute(db);
          return sql`select u.id, u.handle, s.api_key_id from lastfm_sessions s join users u on u.id = s.user_id
            where s.key_hash = ${sha256Hex(sessionKey)} and s.api_key_id = ${owner.rows[0]!.id}`.execute(db);
        },
      );
      await compare(
        `${target.name} Audioscrobbler session: query layer`,
        () => sessionUser(db, sessionId),
        'raw SQL',
        () => sql`select user_id from audioscrobbler_sessions where session_hash = ${sha256Hex(sessionId)} and expires_at > now()`.execute(db),
      );
    } finally {
      await target.close();
    }
  }
}
