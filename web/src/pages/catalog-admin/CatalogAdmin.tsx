/**
 * An admin's tools on an artist's, album's or song's page (its own chunk, loaded for admins only):
 * fix its fields, merge it into another (found by search), and undo the edit just made. Every
 * edit is in the log under Settings, where any of them can be undone.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { query } from '../../api/xrpc.ts';
import { DialogFooter, EditDialog } from '../../components/EditDialog.tsx';
import { Loading } from '../../components/ui.tsx';
import { Link } from '../../router.tsx';
import { draftOf, fieldChanges, FIELDS, type Draft, type Entry, type EntryKind } from './catalog-fields.ts';
import { editFailure, mergeEntry, undoEdit, updateEntry } from './edit-calls.ts';

interface Props {
  kind: EntryKind;
  entry: Entry & { id: string };
  /** How the entry is named in words: "Teardrop by Massive Attack". */
  label: string;
}

interface Done {
  editId: number;
  what: string;
}

export default function CatalogAdmin({ kind, entry, label }: Props) {
  const client = useQueryClient();
  const [open, setOpen] = useState<'fix' | 'merge' | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const refresh = () => client.invalidateQueries();
  const undo = useMutation({
    mutationFn: (id: number) => undoEdit(id),
    onSuccess: () => {
      setDone(null);
      void refresh();
    },
  });
  const finished = (result: Done) => {
    setOpen(null);
    undo.reset();
    setDone(result);
    void refresh();
  };
  return (
    <section className="card admin-tools" aria-labelledby="admin-tools-title">
      <h2 id="admin-tools-title">Edit this {kind}</h2>
      <p className="muted small">Only admins see this. Every edit is logged and can be undone.</p>
      <div className="dialog-buttons">
        <button type="button" className="secondary" onClick={() => setOpen('fix')}>
          Fix details
        </button>
        <button type="button" className="secondary" onClick={() => setOpen('merge')}>
          Merge into another {kind}
        </button>
        <Link href="/settings#catalog-edits">Edit log</Link>
      </div>
      {done && (
        <p role="status">
          {done.what}{' '}
          <button type="button" className="link" disabled={undo.isPending} onClick={() => undo.mutate(done.editId)}>
            Undo
          </button>
        </p>
      )}
      {undo.isError && (
        <p className="error" role="alert">
          {editFailure(undo.error)}
        </p>
      )}
      {open === 'fix' && <FixDialog kind={kind} entry={entry} label={label} onClose={() => setOpen(null)} onDone={finished} />}
      {open === 'merge' && <MergeDialog kind={kind} entry={entry} label={label} onClose={() => setOpen(null)} onDone={finished} />}
    </section>
  );
}

type DialogProps = Props & { onClose: () => void; onDone: (done: Done) => void };

function FixDialog({ kind, entry, label, onClose, onDone }: DialogProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(kind, entry));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (changes: Record<string, unknown>) => updateEntry(kind, entry.id, changes),
    onSuccess: ({ editId }) => onDone({ editId, what: `Saved the ${kind}'s details.` }),
    onError: (error) => setProblem(editFailure(error)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = fieldChanges(kind, entry, draft);
    if ('problem' in checked) setProblem(checked.problem);
    else {
      setProblem(null);
      save.mutate(checked.changes);
    }
  };
  return (
    <EditDialog title={`Fix ${label}`} onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        {FIELDS[kind].map((spec) => {
          const id = `fix-${spec.name}`;
          const props = {
            id,
            value: draft[spec.name] ?? '',
            onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [spec.name]: event.target.value }),
          };
          return (
            <div key={spec.name} className="stack-field">
              <label htmlFor={id}>{spec.label}</label>
              {spec.type === 'long' ? <textarea rows={5} {...props} /> : <input {...props} inputMode={spec.type === 'integer' ? 'numeric' : undefined} />}
            </div>
          );
        })}
        <DialogFooter problem={problem} pending={save.isPending} saveLabel="Save" onCancel={onClose} />
      </form>
    </EditDialog>
  );
}

/** The search's answers of the entry's kind, as id and words, without the entry itself. */
function candidatesOf(kind: EntryKind, found: Awaited<ReturnType<typeof query<'app.svc.feed.search'>>>, self: string) {
  const all =
    kind === 'artist'
      ? found.artists.map((artist) => ({ id: artist.id, label: artist.name }))
      : kind === 'album'
        ? found.albums.map((album) => ({ id: album.id, label: `${album.title} by ${album.artist}` }))
        : found.songs.map((song) => ({ id: song.id, label: `${song.title} by ${song.artist}${song.album ? ` (${song.album})` : ''}` }));
  return all.filter((candidate) => candidate.id !== self);
}

function MergeDialog({ kind, entry, label, onClose, onDone }: DialogProps) {
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const found = useQuery({ queryKey: ['catalog', 'merge-search', kind, q], queryFn: () => query('app.svc.feed.search', { q, limit: 10 }), enabled: q !== '' });
  const merge = useMutation({
    mutationFn: (into: { id: string; label: string }) => mergeEntry(kind, entry.id, into.id),
    onSuccess: ({ editId }, into) => onDone({ editId, what: `Merged ${label} into ${into.label}.` }),
  });
  const candidates = found.data ? candidatesOf(kind, found.data, entry.id) : [];
  const search = (event: FormEvent) => {
    event.preventDefault();
    if (draft.trim()) setQ(draft.trim());
  };
  return (
    <EditDialog title={`Merge ${label} into another ${kind}`} onClose={onClose}>
      <p className="muted small">
        Everything of {label} (plays, likes, links) moves to the {kind} you choose, and its address leads there. Undo brings it back.
      </p>
      <form className="filter-row" role="search" aria-label={`Find the ${kind} to keep`} onSubmit={search}>
        <input type="search" aria-label={`Name of the ${kind} to keep`} maxLength={200} value={draft} onChange={(event) => setDraft(event.target.value)} />
        <button type="submit">Find</button>
      </form>
      {found.isFetching && <Loading label="Searching…" />}
      {found.isError && (
        <p className="error" role="alert">
          {editFailure(found.error)}
        </p>
      )}
      {found.data && candidates.length === 0 && (
        <p className="muted">
          No other {kind} matches “{q}”.
        </p>
      )}
      {candidates.length > 0 && (
        <ul className="merge-candidates">
          {candidates.map((candidate) => (
            <li key={candidate.id}>
              <span>{candidate.label}</span>
              <button
                type="button"
                disabled={merge.isPending}
                aria-label={`Merge into ${candidate.label}`}
                onClick={() => confirm(`Merge ${label} into ${candidate.label}?`) && merge.mutate(candidate)}
              >
                Merge into this
              </button>
            </li>
          ))}
        </ul>
      )}
      {merge.isError && (
        <p className="error" role="alert">
          {editFailure(merge.error)}
        </p>
      )}
      <div className="dialog-buttons">
        <button type="button" className="secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </EditDialog>
  );
}
