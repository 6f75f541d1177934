import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { listenerWithHistory, type TestListen } from '../scrobbling/testing.ts';

const WRAPPED = 'app.svc.stats.getWrapped';
const CLOCK = 'app.svc.stats.getListeningClock';
const CHART = 'app.svc.charts.getScrobblesChart';
const DAY = 86_400_000;
/** No daylight saving time: local midnight is always 18:30 UTC the day before. */
const ZONE = 'Asia/Kolkata';

const play = (at: string | number, title: string): TestListen => ({ at: new Date(at).toISOString(), artist: 'Midnight', title });
const localDate = (at: number) => new Date(at).toLocaleDateString('en-CA', { timeZone: ZONE });
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const clockTotal = (body: { clock: { count: number }[] }) => body.clock.reduce((sum, cell) => sum + cell.count, 0);
const chartTotal = (body: { chart: { count: number }[] }) => body.chart.reduce((sum, day) => sum + day.count, 0);

describeWithApp("A period's figures, chart and clock count the same plays", (app) => {
  test('a rolling window: plays just before and after local midnight at its start count alike in all three', async () => {
    const now = Date.now();
    // The local days the profile used to ask the chart and clock for: the last 30, today included.
    const tomorrow = addDays(localDate(now), 1);
    const firstDay = addDays(tomorrow, -30);
    const midnight = Date.parse(`${firstDay}T00:00:00+05:30`);
    const { did } = await listenerWithHistory(app(), 'midnighter', [
      play(midnight - 60_000, 'A minute before midnight, 30 days ago'),
      play(midnight + 60_000, 'A minute after'),
      play(now - 3_600_000, 'An hour ago'),
    ]);
    const wrapped = (await app().query(WRAPPED, { did, period: 'last30days', tz: ZONE })).body;
    assert.ok(Date.parse(wrapped.startDate) < midnight - 60_000, 'the rolling window starts 30 × 24 hours ago');
    assert.equal(wrapped.totalScrobbles, 3);

    const byDays = (await app().query(CLOCK, { did, startDate: firstDay, endDate: tomorrow, tz: ZONE })).body;
    assert.equal(clockTotal(byDays), 2, 'local days leave out the play before midnight: the two numbers the profile showed disagreed');

    const clock = await app().query(CLOCK, { did, period: 'last30days', tz: ZONE });
    assert.equal(clock.status, 200);
    assert.equal(clockTotal(clock.body), wrapped.totalScrobbles);
    const chart = (await app().query(CHART, { did, period: 'last30days', tz: ZONE })).body;
    assert.equal(chartTotal(chart), wrapped.totalScrobbles);
    assert.deepEqual(
      chart.chart.map((day: { date: string }) => day.date),
      [addDays(firstDay, -1), firstDay, localDate(now - 3_600_000)],
    );
  });

  test("a calendar year in the user's own zone: plays either side of its local New Year", async () => {
    const { did, userId } = await listenerWithHistory(app(), 'new-year', [
      play('2024-12-31T18:20:00Z', '23:50 on New Year’s Eve in Kolkata'),
      play('2024-12-31T18:40:00Z', '00:10 on New Year’s Day in Kolkata'),
      play('2025-12-31T18:29:00Z', 'The last minute of 2025 in Kolkata'),
      play('2025-12-31T18:31:00Z', 'The first minute of 2026 in Kolkata'),
    ]);
    await app().ctx.db.updateTable('users').set({ timezone: ZONE }).where('id', '=', userId).execute();
    const wrapped = (await app().query(WRAPPED, { did, year: 2025 })).body;
    assert.equal(wrapped.totalScrobbles, 2);
    const clock = (await app().query(CLOCK, { did, period: 'year', year: 2025 })).body;
    assert.equal(clock.timeZone, ZONE);
    assert.equal(clockTotal(clock), 2);
    assert.deepEqual((await app().query(CHART, { did, period: 'year', year: 2025 })).body.chart, [
      { date: '2025-01-01', count: 1 },
      { date: '2025-12-31', count: 1 },
    ]);
  });

  test('a period with startDate or endDate is 400 InvalidRequest', async () => {
    await listenerWithHistory(app(), 'both-ways');
    for (const nsid of [CLOCK, CHART]) {
      const result = await app().query(nsid, { did: 'both-ways', period: 'last7days', startDate: '2024-03-01' });
      assert.equal(result.status, 400, nsid);
      assert.equal(result.body.error, 'InvalidRequest');
    }
  });
});
