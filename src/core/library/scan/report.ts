/** What a scan tells its caller (and keeps in library_sources.last_scan_report). */

export interface Skipped {
  /** Relative to the source root. */
  path: string;
  reason: string;
}

export interface ScanReport {
  /** 'already-scanning': another scan held this source's lease, and this one did nothing. */
  status: 'scanned' | 'already-scanning';
  sourceId: number;
  root: string;
  startedAt: string;
  durationMs: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  directories: number;
  /** The first MAX_SKIPPED_LISTED skipped entries; skippedCount counts them all. */
  skipped: Skipped[];
  skippedCount: number;
}

export const MAX_SKIPPED_LISTED = 100;

/** Collects skipped entries, keeping the first MAX_SKIPPED_LISTED. */
export class SkipList {
  readonly listed: Skipped[] = [];
  count = 0;

  add(skipped: Skipped): void {
    this.count++;
    if (this.listed.length < MAX_SKIPPED_LISTED) this.listed.push(skipped);
  }
}

/** The report in one line, for a log. */
export function reportSummary(report: ScanReport): string {
  if (report.status === 'already-scanning') return `${report.root}: already being scanned by another scan; nothing done`;
  const seconds = (report.durationMs / 1000).toFixed(1);
  return (
    `Scanned ${report.root} in ${seconds} s: ${report.added} added, ${report.updated} updated, ${report.removed} removed, ` +
    `${report.unchanged} unchanged, ${report.directories} directories, ${report.skippedCount} skipped`
  );
}

/** The report as lines for a terminal: the summary, then what was skipped and why. */
export function formatReport(report: ScanReport): string {
  const lines = [reportSummary(report), ...report.skipped.map((entry) => `  skipped ${entry.path}: ${entry.reason}`)];
  if (report.skippedCount > report.skipped.length) lines.push(`  … and ${report.skippedCount - report.skipped.length} more skipped`);
  return lines.join('\n');
}
