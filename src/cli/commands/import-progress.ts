import type { ImportProgress, ImportSummary } from '../../core/scrobbling/imports/index.ts';

/** Without a terminal (logs, CI) progress is a plain line this often. */
const PLAIN_PROGRESS_INTERVAL_MS = 5000;
const BAR_WIDTH = 24;

const megabytes = (bytes: number) => (bytes / 1_048_576).toFixed(1);

function duration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const [hours, minutes] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60)];
  const mmss = `${String(minutes).padStart(hours ? 2 : 1, '0')}:${String(whole % 60).padStart(2, '0')}`;
  return hours ? `${hours}:${mmss}` : mmss;
}

/** Counts of the files finished so far in this command, to add the current one's to. */
interface Totals {
  bytes: number;
  stored: number;
  duplicate: number;
  ignored: number;
}

/**
 * Progress of a whole command (several files, an archive's entries): the bar
 * and ETA go over the total bytes, the counts are listens committed. On a
 * terminal it is one line redrawn in place, cleared before anything else is
 * printed; otherwise a plain line at the first batch and every few seconds.
 */
export function progressReporter(totalBytes: number, files: number, stream: NodeJS.WriteStream = process.stderr) {
  const started = performance.now();
  const done: Totals = { bytes: 0, stored: 0, duplicate: 0, ignored: 0 };
  /** Bytes of files found complete already: passed at once, so not part of the rate. */
  let skippedBytes = 0;
  let file = 0;
  let lastPlain = 0;
  let shown = false;
  let latest: string | undefined;

  const line = (progress: ImportProgress | undefined) => {
    const bytes = done.bytes + (progress?.bytesRead ?? 0);
    const share = totalBytes > 0 ? Math.min(bytes / totalBytes, 1) : 1;
    const filled = Math.round(share * BAR_WIDTH);
    const count = (field: keyof Omit<Totals, 'bytes'>) => done[field] + (progress?.[field] ?? 0);
    const committed = count('stored') + count('duplicate') + count('ignored');
    const elapsed = (performance.now() - started) / 1000;
    const worked = bytes - skippedBytes;
    const eta = worked > 0 && share < 1 ? `  ETA ${duration((elapsed / worked) * (totalBytes - bytes))}` : '';
    return (
      `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ` +
      `${megabytes(bytes)}/${megabytes(totalBytes)} MB  ${files > 1 ? `file ${file}/${files}  ` : ''}` +
      `committed ${committed}: stored ${count('stored')}  duplicate ${count('duplicate')}  ignored ${count('ignored')}  ` +
      `${Math.round(committed / Math.max(elapsed, 0.001))} listens/s${eta}`
    );
  };
  const clear = () => {
    if (stream.isTTY && shown) stream.write('\r\x1b[K');
    shown = false;
  };
  return {
    startFile() {
      file++;
    },
    update(progress: ImportProgress) {
      latest = line(progress);
      if (stream.isTTY) {
        stream.write(`\r${latest}\x1b[K`);
        shown = true;
      } else if (performance.now() - lastPlain >= PLAIN_PROGRESS_INTERVAL_MS || lastPlain === 0) {
        stream.write(`${latest}\n`);
        lastPlain = performance.now();
        latest = undefined;
      }
    },
    /** Adds a finished (or stopped) file to the totals; call `clear` before printing its summary. */
    endFile(summary: ImportSummary) {
      done.bytes += summary.fileBytes;
      if (summary.alreadyComplete) skippedBytes += summary.fileBytes;
      done.stored += summary.stored;
      done.duplicate += summary.duplicate;
      done.ignored += summary.ignored;
      latest = line(undefined);
    },
    clear,
    /** The last state on its own line (a terminal already shows it), so a log ends with the totals. */
    end() {
      clear();
      if (latest) stream.write(`${latest}\n`);
    },
  };
}
