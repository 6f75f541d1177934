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

/** The report as lines for a terminal or a log. */
export function formatReport(report: ScanReport): string {
  if (report.status === 'already-scanning') return `${report.root}: already scanning (another scan holds this folder); nothing done`;
  const seconds = (report.durationMs / 1000).toFixed(1);
  const lines = [
    `Scanned ${report.root} in ${seconds} s: ${report.added} added, ${report.updated} updated, ${report.removed} removed, ` +
      `${report.unchanged} unchanged, ${report.directories} directories, ${report.skippedCount} skipped`,
    ...report.skipped.map((entry) => `  skipped ${entry.path}: ${entry.reason}`),
  ];
  if (report.skippedCount > report.skipped.length) lines.push(`  … and ${report.skippedCount - report.skipped.length} more skipped`);
  return lines.join('\n');
}
