import { readFileSync } from 'node:fs';

const SAMPLE_MS = 100;

/** A process's resident set size in KiB (VmRSS of /proc/<pid>/status), or null where it cannot be read (not Linux, gone). */
export function rssKiB(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every 100 ms until `stop`, which answers the peak (null when never read). */
export function watchPeakRss(pid: number | undefined): { stop(): number | null } {
  if (pid === undefined) return { stop: () => null };
  let peak: number | null = null;
  const sample = () => {
    const rss = rssKiB(pid);
    if (rss !== null) peak = Math.max(peak ?? 0, rss);
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
