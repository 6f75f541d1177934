/**
 * Work a serving process repeats on its own: the music folder's rescans, file host syncs,
 * streaming polls. Each runs at once and then every interval after the previous run ended (runs
 * of one job never overlap); results and failures are only logged, and `stop` aborts a run at its
 * next checkpoint and cancels the next one, so a shutdown leaves no lease held.
 */
export interface BackgroundJob {
  name: string;
  /** 0: run once, at start. */
  intervalMs: number;
  /** One run; its answer (a summary) is logged. */
  run(signal: AbortSignal): Promise<string | undefined>;
}

export interface RunningJobs {
  stop(): Promise<void>;
}

export type JobOutcome = 'succeeded' | 'failed';

/** Told how each run ended (the metrics count them); a run that fails because `stop` aborted it is not counted. */
export interface BackgroundJobObserver {
  jobRan(job: string, outcome: JobOutcome): void;
}

export function startBackgroundJobs(jobs: readonly BackgroundJob[], observer: BackgroundJobObserver): RunningJobs {
  const controller = new AbortController();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  const start = (job: BackgroundJob): void => {
    const run = job.run(controller.signal).then(
      (summary) => {
        if (summary) console.log(`${job.name}: ${summary}`);
        observer.jobRan(job.name, 'succeeded');
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(`${job.name} failed: ${error instanceof Error ? error.message : String(error)}`);
        observer.jobRan(job.name, 'failed');
      },
    );
    running.add(run);
    void run.then(() => {
      running.delete(run);
      if (job.intervalMs > 0 && !controller.signal.aborted) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          start(job);
        }, job.intervalMs).unref();
        timers.add(timer);
      }
    });
  };
  for (const job of jobs) start(job);
  return {
    async stop() {
      controller.abort();
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(running);
    },
  };
}

const detached = new Set<Promise<void>>();

/**
 * Starts work a request asked for but does not wait on (the first sync after connecting a file
 * host); a failure is logged. Hosts closing wait for it (settleDetached), so no work outlives
 * the database it writes to.
 */
export function runDetached(name: string, work: () => Promise<string | undefined>): void {
  const run = work().then(
    (summary) => {
      if (summary) console.log(`${name}: ${summary}`);
    },
    (error: unknown) => console.error(`${name} failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  detached.add(run);
  void run.finally(() => detached.delete(run));
}

/** Waits for every detached run started so far. */
export async function settleDetached(): Promise<void> {
  while (detached.size > 0) await Promise.all(detached);
}
