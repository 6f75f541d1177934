import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordingClock } from './fake/clock-testing.ts';
import { metadataUserAgent, RequestSpacer } from './metadata-fetch.ts';

test('the spacer lets one call through per interval: calls at once wait for the next free slot', async () => {
  const clock = recordingClock('frozen');
  const spacer = new RequestSpacer(1_000, clock);
  await Promise.all([spacer.take(), spacer.take(), spacer.take()]);
  // The first goes at once; the second and third were given the slots 1 s and 2 s later.
  assert.deepEqual(clock.slept, [1_000, 2_000]);
});

test('a call after a quiet spell goes at once; one soon after a call waits only for the rest of the interval', async () => {
  let now = 10_000;
  const slept: number[] = [];
  const spacer = new RequestSpacer(1_000, { now: () => now, sleep: async (ms) => void slept.push(ms) });
  await spacer.take();
  now += 5_000;
  await spacer.take();
  now += 400;
  await spacer.take();
  assert.deepEqual(slept, [600]);
});

test('the User-Agent names Earshot, its version and the contact', () => {
  assert.match(metadataUserAgent('mailto:admin@example.org'), /^Earshot\/\d+\.\d+\.\d+\S* \( mailto:admin@example\.org \)$/);
});
