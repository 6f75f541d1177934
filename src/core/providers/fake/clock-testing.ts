import type { Clock } from '../metadata-fetch.ts';

/**
 * Time for tests of the request spacer and retries: every pause is recorded instead of taken, so
 * nothing waits and no assertion depends on timing. A moving clock's time advances by each pause
 * (calls one after another); a frozen one stays put (calls all made at the same moment).
 */
export function recordingClock(mode: 'moving' | 'frozen' = 'moving'): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    async sleep(ms) {
      slept.push(ms);
      if (mode === 'moving') now += ms;
    },
  };
}
