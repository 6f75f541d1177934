import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { describeWithApp, jsonRequest, type TestApp } from '../../app/testing.ts';
import { ingestListens, type Listen, type ListenOutcome } from './ingest.ts';
import { listenProblem } from './listen-rules.ts';
import { listenerWithHistory } from './testing.ts';

/**
 * Group commit (group-commit.ts) over a real database: concurrent small calls of ingestListens
 * share transactions, and each caller still gets exactly the outcome it would have alone.
 */

const minute = (n: number) => new Date(Date.UTC(2025, 2, 1) + n * 60_000);

/** The stored scrobble is visible to another connection the moment its caller is answered: committed. */
async function committed(app: TestApp, outcome: ListenOutcome): Promise<ListenOutcome> {
  if (outcome.status !== 'ignored') await app.ctx.db.selectFrom('scrobbles').select('id').where('id', '=', outcome.scrobbleId).executeTakeFirstOrThrow();
  return outcome;
}

describeWithApp('group commit of single listens', (app) => {
  test('concurrent single listens of two users from several sources: shared transactions, each its own outcome', async () => {
    const [ann, bob] = [await listenerWithHistory(app(), 'group-ann'), await listenerWithHistory(app(), 'group-bob')];
    const sources = ['listenbrainz', 'lastfm', 'maloja'];
    const calls: { userId: string; listen: Listen; source: string }[] = Array.from({ length: 30 }, (_, i) => ({
      userId: (i % 2 ? bob : ann).userId,
      listen: { artist: `Group Artist ${i % 4}`, title: `Group Song ${i % 6}`, listenedAt: minute(i) },
      source: sources[i % 3]!,
    }));
    const twin = calls[3]!;
    calls.push({ ...twin }); // the same listen again, as a second request of the same client: a duplicate
    calls.push({ ...twin, userId: twin.userId === ann.userId ? bob.userId : ann.userId }); // another user's: stored
    calls.push({ userId: ann.userId, listen: { artist: 'Group Artist 0', title: '', listenedAt: minute(99) }, source: 'lastfm' });
    const outcomes = await Promise.all(
      calls.map(({ userId, listen, source }) => ingestListens(app().ctx, userId, [listen], source).then(([o]) => committed(app(), o!))),
    );

    assert.deepEqual(outcomes.at(-1), { status: 'ignored', reason: listenProblem(calls.at(-1)!.listen) });
    const [first, again] = [outcomes[3]!, outcomes[30]!];
    assert.ok(first.status !== 'ignored' && again.status !== 'ignored');
    assert.deepEqual([first.status, again.status].sort(), ['duplicate', 'stored']);
    assert.equal(first.scrobbleId, again.scrobbleId);
    const stored = outcomes.flatMap((outcome, i) => (outcome.status === 'stored' ? [{ outcome, call: calls[i]! }] : []));
    assert.equal(stored.length, 31);
    const rows = await app()
      .ctx.db.selectFrom('scrobbles')
      .select(['id', 'user_id', 'listened_at', 'source', sql<string>`xmin::text`.as('transaction')])
      .where('user_id', 'in', [ann.userId, bob.userId])
      .execute();
    assert.equal(rows.length, 31);
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const { outcome, call } of stored) {
      const row = byId.get(outcome.status === 'stored' ? outcome.scrobbleId : '')!;
      assert.deepEqual([row.user_id, row.listened_at.getTime(), row.source], [call.userId, call.listen.listenedAt.getTime(), call.source]);
    }
    // Submitted together, they were written by a few transactions, not one each.
    assert.ok(new Set(rows.map((row) => row.transaction)).size <= 4, `${new Set(rows.map((row) => row.transaction)).size} transactions`);
  });

  test('a listen the database refuses fails its own call only; the others waiting with it are stored', async () => {
    const user = await listenerWithHistory(app(), 'group-refused');
    // No listen rule bounds bpm (yet): a new song's bpm past integer range is refused by the database alone.
    const listens: Listen[] = Array.from({ length: 6 }, (_, i) => ({ artist: 'Refused Artist', title: `Refused Song ${i}`, listenedAt: minute(200 + i) }));
    listens[3] = { ...listens[3]!, bpm: 2 ** 31 };
    const settled = await Promise.allSettled(listens.map((listen) => ingestListens(app().ctx, user.userId, [listen], 'listenbrainz')));
    assert.deepEqual(
      settled.map((result) => (result.status === 'fulfilled' ? result.value[0]!.status : (result.reason as { code?: string }).code)),
      ['stored', 'stored', 'stored', '22003', 'stored', 'stored'],
    );
  });

  test('the same listen in two concurrent ListenBrainz requests: one stored, one duplicate', async () => {
    const user = await listenerWithHistory(app(), 'group-twice');
    const created = await app().procedure('app.svc.apikey.createApikey', { name: 'twice' }, user.token);
    const body = { listen_type: 'single', payload: [{ listened_at: 1_740_000_000, track_metadata: { artist_name: 'Twice', track_name: 'Sent Twice' } }] };
    const submit = () =>
      jsonRequest<{ payload: { stored: number; duplicate: number } }>(`${app().scrobblerUrl}/1/submit-listens`, 'POST', {
        body,
        headers: { authorization: `Token ${created.body.key}` },
      });
    const answers = await Promise.all([submit(), submit(), submit()]);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200],
    );
    assert.deepEqual(answers.map((answer) => answer.body.payload.stored).sort(), [0, 0, 1]);
    assert.deepEqual(answers.map((answer) => answer.body.payload.duplicate).sort(), [0, 1, 1]);
  });
});
