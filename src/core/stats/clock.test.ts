import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { listenerWithHistory, type TestListen } from '../scrobbling/testing.ts';

const CLOCK = 'app.svc.stats.getListeningClock';

const play = (at: string, title: string): TestListen => ({ at, artist: 'Clockwork', title });

describeWithApp('Listening clock', (app) => {
  test('counts plays by local weekday (Monday = 0) and hour; a :30 zone moves a play across midnight', async () => {
    const { did, userId } = await listenerWithHistory(app(), 'clocker', [
      play('2024-03-05T14:20:00Z', 'Tuesday afternoon'),
      play('2024-03-12T14:50:00Z', 'Another Tuesday afternoon'),
      play('2024-03-10T22:45:00Z', 'Sunday night in UTC, Monday morning in Kolkata'),
    ]);
    await listenerWithHistory(app(), 'someone-else', [play('2024-03-05T14:00:00Z', 'Not counted')]);
    assert.deepEqual((await app().query(CLOCK, { did, tz: 'UTC' })).body, {
      clock: [
        { weekday: 1, hour: 14, count: 2 },
        { weekday: 6, hour: 22, count: 1 },
      ],
      timeZone: 'UTC',
    });
    assert.deepEqual((await app().query(CLOCK, { did, tz: 'Asia/Kolkata' })).body, {
      clock: [
        { weekday: 0, hour: 4, count: 1 },
        { weekday: 1, hour: 19, count: 1 },
        { weekday: 1, hour: 20, count: 1 },
      ],
      timeZone: 'Asia/Kolkata',
    });

    // Without tz, the user's own zone; local days bound the window in that zone too.
    await app().ctx.db.updateTable('users').set({ timezone: 'Asia/Kolkata' }).where('id', '=', userId).execute();
    assert.deepEqual((await app().query(CLOCK, { did: 'clocker', startDate: '2024-03-11', endDate: '2024-03-12' })).body, {
      clock: [{ weekday: 0, hour: 4, count: 1 }],
      timeZone: 'Asia/Kolkata',
    });
    assert.deepEqual((await app().query(CLOCK, { did, startDate: '2024-03-11', endDate: '2024-03-12', tz: 'UTC' })).body, { clock: [], timeZone: 'UTC' });
  });

  test('bad parameters are 400 InvalidRequest; an unknown user is 404', async () => {
    await listenerWithHistory(app(), 'valid');
    const cases: [Record<string, string>, number][] = [
      [{ did: 'valid', tz: 'Mars/Olympus' }, 400],
      [{ did: 'valid', tz: '+05:30' }, 400],
      [{ did: 'valid', startDate: 'tomorrow' }, 400],
      [{ did: 'valid', startDate: '2024-03-02', endDate: '2024-03-01' }, 400],
      [{}, 400],
      [{ did: 'nobody-here' }, 404],
    ];
    for (const [params, status] of cases) {
      const result = await app().query(CLOCK, params);
      assert.equal(result.status, status, JSON.stringify(params));
      assert.equal(result.body.error, status === 404 ? 'NotFound' : 'InvalidRequest');
    }
  });
});
