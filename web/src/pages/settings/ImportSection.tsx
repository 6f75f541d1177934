/** Importing export files with live progress per file; a stopped or failed import resumes when the same file is chosen again. */
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { procedure, query } from '../../api/xrpc.ts';
import { ErrorNote } from '../../components/ui.tsx';
import { FORMAT_NAMES, importFile, type FileProgress, type ImportApi, type ImportFormat } from './import-runner.ts';
import { SettingsSection } from './shared.tsx';

const api: ImportApi = {
  status: (fingerprint) => query('app.svc.scrobble.getImport', { fingerprint }),
  send: (batch) => procedure('app.svc.scrobble.importListens', batch),
};

interface FileRun {
  name: string;
  progress?: FileProgress;
  error?: unknown;
  /** Not started: the import was stopped before this file. */
  skipped?: boolean;
}

const number = (value: number) => value.toLocaleString();

function FileReport({ run }: { run: FileRun }) {
  const { progress, error } = run;
  const reasons = Object.entries(progress?.reasons ?? {}).sort((a, b) => b[1] - a[1]);
  return (
    <li>
      <strong>{run.name}</strong>
      {progress && (
        <>
          <span className="muted">
            {' '}
            {progress.format && ` · ${FORMAT_NAMES[progress.format]}`} · {progress.phase === 'reading' ? 'reading the file…' : progress.phase}
          </span>
          {progress.phase === 'importing' && <progress max={progress.bytes || 1} value={progress.bytesRead} aria-label={`${run.name} read so far`} />}
          <p className="small" aria-live="polite">
            {number(progress.records)} records: {number(progress.stored)} {progress.phase === 'already imported' ? 'stored' : 'new plays'},{' '}
            {number(progress.duplicate)} already there, {number(progress.ignored)} ignored
            {progress.newSongs > 0 && `; ${number(progress.newSongs)} songs new to the catalog`}.
            {progress.resumedFrom > 0 && ` Resumed after the ${number(progress.resumedFrom)} records imported before.`}
          </p>
          {progress.phase === 'already imported' && <p className="small muted">This file was imported completely before; nothing was sent.</p>}
          {progress.phase === 'stopped' && <p className="small">Stopped. Choose this file again to continue where it stopped.</p>}
          {reasons.length > 0 && (
            <details>
              <summary>Why records were ignored</summary>
              <ul className="small">
                {reasons.map(([reason, count]) => (
                  <li key={reason}>
                    {reason}: {number(count)}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
      {run.skipped && <p className="small muted">Not started. Run the import again to continue.</p>}
      {error !== undefined && (
        <>
          <ErrorNote error={error} />
          <p className="small">What was imported before this is kept: run the import again with this file to continue from there.</p>
        </>
      )}
    </li>
  );
}

export function ImportSection() {
  const client = useQueryClient();
  const [files, setFiles] = useState<File[]>([]);
  const [format, setFormat] = useState<ImportFormat | ''>('');
  const [dryRun, setDryRun] = useState(false);
  const [runs, setRuns] = useState<FileRun[]>([]);
  const [running, setRunning] = useState(false);
  const stop = useRef(false);
  const update = (index: number, change: Partial<FileRun>) => setRuns((current) => current.map((run, i) => (i === index ? { ...run, ...change } : run)));
  const start = async (event: FormEvent) => {
    event.preventDefault();
    stop.current = false;
    setRunning(true);
    setRuns(files.map((file) => ({ name: file.name })));
    for (const [index, file] of files.entries()) {
      if (stop.current) {
        update(index, { skipped: true });
        continue;
      }
      try {
        const progress = await importFile(file, {
          format: format || undefined,
          api,
          dryRun,
          stopRequested: () => stop.current,
          onProgress: (progress) => update(index, { progress }),
        });
        update(index, { progress });
      } catch (error) {
        update(index, { error });
      }
    }
    setRunning(false);
    if (!dryRun) void client.invalidateQueries();
  };
  return (
    <SettingsSection id="import" title="Import your history">
      <p className="muted">
        Choose one or more exports: ListenBrainz (the <code>listens/…jsonl</code> files of its zip, or a JSON array), Spotify (the{' '}
        <code>Streaming_History_Audio_*.json</code> or <code>StreamingHistory_music_*.json</code> files of its zip), Last.fm (CSV or recenttracks JSON), a{' '}
        <code>.scrobbler.log</code>, or a Maloja export. Unzip archives first, or give the zip to <code>earshot import</code> on the command line. Plays you
        already have are not stored twice. Keep this page open while it runs: if it closes or you stop it, choose the same files again and the import continues
        where it stopped.
      </p>
      <form className="stack" onSubmit={(event) => void start(event)}>
        <label>
          Export files
          <input
            type="file"
            multiple
            required
            accept=".json,.jsonl,.csv,.log,.txt"
            disabled={running}
            onChange={(e) => setFiles(Array.from(e.target.files ?? []))}
          />
        </label>
        <label>
          Format
          <select value={format} disabled={running} onChange={(e) => setFormat(e.target.value as ImportFormat | '')}>
            <option value="">Recognise it from the file</option>
            {Object.entries(FORMAT_NAMES).map(([name, title]) => (
              <option key={name} value={name}>
                {title}
              </option>
            ))}
          </select>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={dryRun} disabled={running} onChange={(e) => setDryRun(e.target.checked)} />
          Dry run: count what would be imported, and store nothing
        </label>
        <div className="actions">
          <button type="submit" disabled={running || files.length === 0}>
            {running ? 'Importing…' : dryRun ? 'Try the import' : 'Import'}
          </button>
          {running && (
            <button type="button" className="secondary" onClick={() => (stop.current = true)}>
              Stop after this batch
            </button>
          )}
        </div>
      </form>
      {runs.length > 0 && (
        <ul className="settings-list imports">
          {runs.map((run, index) => (
            <FileReport key={index} run={run} />
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}
