/**
 * Importing exports as people have them: a zip (Earshot's, ListenBrainz's, Spotify's), several files or a
 * folder, dropped or chosen. What will be imported shows first (import-plan.ts, the command line's plan),
 * then each file or zip entry runs with live progress; a stopped or failed import resumes when the same
 * files are given again, here or to `earshot import`.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { procedure, query } from '../../api/xrpc.ts';
import { ErrorNote } from '../../components/ui.tsx';
import { chosenFromDrop, chosenFromInput } from './chosen-files.ts';
import { planImports, type ChosenFile, type ImportPlan } from './import-plan.ts';
import { PlayClaims } from '../../../../src/core/scrobbling/play-claims.ts';
import { FORMAT_NAMES, importFile, type FileProgress, type ImportApi, type ImportFormat } from './import-runner.ts';
import { SettingsSection } from './shared.tsx';

const api: ImportApi = {
  status: (fingerprint) => query('app.svc.scrobble.getImport', { fingerprint }),
  send: (batch) => procedure('app.svc.scrobble.importListens', batch),
};

interface FileRun {
  name: string;
  dryRun: boolean;
  progress?: FileProgress;
  error?: unknown;
  /** Not started: the import was stopped (or failed) before this file. */
  skipped?: boolean;
}

const number = (value: number) => value.toLocaleString();
const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

function FileReport({ run }: { run: FileRun }) {
  const { progress, error } = run;
  const reasons = Object.entries(progress?.reasons ?? {}).sort((a, b) => b[1] - a[1]);
  const storedAs = progress?.phase === 'already imported' ? 'stored' : run.dryRun ? 'would be stored' : 'new plays';
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
            {number(progress.records)} records: {number(progress.stored)} {storedAs}, {number(progress.duplicate)} already there, {number(progress.ignored)}{' '}
            ignored
            {progress.newSongs > 0 && `; ${number(progress.newSongs)} songs new to the catalog`}.
            {progress.resumedFrom > 0 && ` Resumed after the ${number(progress.resumedFrom)} records imported before.`}
          </p>
          {progress.phase === 'already imported' && <p className="small muted">This file was imported completely before; nothing was sent.</p>}
          {progress.phase === 'stopped' && <p className="small">Stopped. Give the same files again to continue where it stopped.</p>}
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
          <p className="small">What was imported before this is kept: run the import again with the same files to continue from there.</p>
        </>
      )}
    </li>
  );
}

function Totals({ runs }: { runs: FileRun[] }) {
  const sum = (field: 'stored' | 'duplicate' | 'ignored') => runs.reduce((total, run) => total + (run.progress?.[field] ?? 0), 0);
  const verb = runs[0]?.dryRun ? 'would store' : 'stored';
  return (
    <p data-testid="import-totals">
      Total: {runs.length} files; {verb} {number(sum('stored'))}, {number(sum('duplicate'))} already there, {number(sum('ignored'))} ignored.
    </p>
  );
}

function PlanPreview({ plan }: { plan: ImportPlan }) {
  return (
    <section aria-label="What will be imported" className="small">
      <p>
        {plan.imports.length === 0
          ? 'Nothing to import in what you gave.'
          : `${plan.imports.length} ${plan.imports.length === 1 ? 'file' : 'files'} to import, in this order:`}
      </p>
      <ul className="import-plan">
        {plan.imports.map((planned) => (
          <li key={planned.label}>
            {planned.label}{' '}
            <span className="muted">
              · {planned.format} · {size(planned.bytes)}
            </span>
          </li>
        ))}
      </ul>
      {plan.skipped.length > 0 && (
        <details>
          <summary>Skipped {plan.skipped.length}</summary>
          <ul>
            {plan.skipped.map(({ path, reason }) => (
              <li key={path}>
                {path}: {reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

export function ImportSection() {
  const client = useQueryClient();
  const [chosen, setChosen] = useState<ChosenFile[]>([]);
  const [format, setFormat] = useState<ImportFormat | ''>('');
  const [plan, setPlan] = useState<{ plan?: ImportPlan; error?: unknown; pending?: boolean }>({});
  const [dryRun, setDryRun] = useState(false);
  const [runs, setRuns] = useState<FileRun[]>([]);
  const [running, setRunning] = useState(false);
  const [dragging, setDragging] = useState(false);
  const stop = useRef(false);
  useEffect(() => {
    if (chosen.length === 0) return setPlan({});
    let current = true;
    setPlan({ pending: true });
    planImports(chosen, format || undefined).then(
      (planned) => current && setPlan({ plan: planned }),
      (error: unknown) => current && setPlan({ error }),
    );
    return () => {
      current = false;
    };
  }, [chosen, format]);
  const choose = (files: ChosenFile[]) => {
    setChosen(files);
    setRuns([]);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!running) void chosenFromDrop(event.dataTransfer).then(choose);
  };
  const update = (index: number, change: Partial<FileRun>) => setRuns((current) => current.map((run, i) => (i === index ? { ...run, ...change } : run)));
  const start = async (event: FormEvent) => {
    event.preventDefault();
    const imports = plan.plan?.imports ?? [];
    stop.current = false;
    setRunning(true);
    setRuns(imports.map((planned) => ({ name: planned.label, dryRun })));
    // One dry run over every file: a play repeated in another file counts as duplicate, as a real import would count it.
    const claims = new PlayClaims();
    for (const [index, planned] of imports.entries()) {
      if (stop.current) {
        update(index, { skipped: true });
        continue;
      }
      try {
        const progress = await importFile(await planned.content(), {
          format: planned.format,
          fingerprint: planned.fingerprint,
          api,
          dryRun,
          claims,
          stopRequested: () => stop.current,
          onProgress: (progress) => update(index, { progress }),
        });
        update(index, { progress });
        if (progress.phase === 'stopped') stop.current = true;
      } catch (error) {
        update(index, { error });
        // As the command line does: what follows waits for the failed file, so a re-run continues in order.
        stop.current = true;
      }
    }
    setRunning(false);
    if (!dryRun) void client.invalidateQueries();
  };
  const ready = !running && !plan.pending && (plan.plan?.imports.length ?? 0) > 0;
  return (
    <SettingsSection id="import" title="Import your history">
      <p className="muted">
        Give your exports as you have them: the zip Earshot, ListenBrainz or Spotify gave you, a folder, or several files. Earshot reads ListenBrainz (its zip,
        its <code>listens/…jsonl</code> files, or a JSON array), Spotify (its zip or its <code>Streaming_History_Audio_*.json</code> or{' '}
        <code>StreamingHistory_music_*.json</code> files), Last.fm (CSV or recenttracks JSON), a <code>.scrobbler.log</code>, or a Maloja export. Plays you
        already have are not stored twice. Keep this page open while it runs: if it closes or you stop it, give the same files again (here or to{' '}
        <code>earshot import</code>) and the import continues where it stopped.
      </p>
      <form className="stack" onSubmit={(event) => void start(event)}>
        <div
          className={`dropzone${dragging ? ' dragging' : ''}`}
          role="group"
          aria-label="Exports to import"
          data-testid="import-drop"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          <p>Drop export files, zips or folders here, or choose them:</p>
          <label>
            Export files
            <input
              type="file"
              multiple
              accept=".zip,.json,.jsonl,.csv,.tsv,.log,.txt"
              disabled={running}
              onChange={(event) => {
                choose(chosenFromInput(event.target.files ?? []));
                event.target.value = '';
              }}
            />
          </label>
          <label>
            A folder
            <input
              type="file"
              ref={(input) => input?.setAttribute('webkitdirectory', '')}
              disabled={running}
              onChange={(event) => {
                choose(chosenFromInput(event.target.files ?? []));
                event.target.value = '';
              }}
            />
          </label>
        </div>
        <label>
          Format
          <select value={format} disabled={running} onChange={(e) => setFormat(e.target.value as ImportFormat | '')}>
            <option value="">Recognise it from each file</option>
            {Object.entries(FORMAT_NAMES).map(([name, title]) => (
              <option key={name} value={name}>
                {title}
              </option>
            ))}
          </select>
        </label>
        {plan.pending && <p className="small muted">Reading what you gave…</p>}
        {plan.error !== undefined && <ErrorNote error={plan.error} />}
        {plan.plan && <PlanPreview plan={plan.plan} />}
        <label className="checkbox">
          <input type="checkbox" checked={dryRun} disabled={running} onChange={(e) => setDryRun(e.target.checked)} />
          Dry run: count what would be imported, and store nothing
        </label>
        <div className="actions">
          <button type="submit" disabled={!ready}>
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
        <>
          <ul className="settings-list imports">
            {runs.map((run, index) => (
              <FileReport key={index} run={run} />
            ))}
          </ul>
          {runs.length > 1 && <Totals runs={runs} />}
        </>
      )}
    </SettingsSection>
  );
}
