/** The catalog's edit log (admins only): who merged or fixed what and when, newest first, each with Undo. */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { query } from '../../api/xrpc.ts';
import { sentence } from '../../components/play-correction.ts';
import { Empty, ErrorNote, Loading, formatDate } from '../../components/ui.tsx';
import { editFailure, undoEdit } from '../catalog-admin/edit-calls.ts';
import { SettingsSection } from './shared.tsx';

const PAGE = 50;

export function CatalogEditsSection() {
  const client = useQueryClient();
  const edits = useInfiniteQuery({
    queryKey: ['settings', 'catalog-edits'],
    queryFn: ({ pageParam }) => query('app.svc.catalog.getEdits', { limit: PAGE, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.cursor,
  });
  // The pages' "Edit log" link names this section; the router scrolls to the top, so the section brings itself into view once loaded.
  const loaded = !edits.isPending;
  useEffect(() => {
    if (loaded && window.location.hash === '#catalog-edits') document.getElementById('catalog-edits')?.scrollIntoView();
  }, [loaded]);
  const undo = useMutation({
    mutationFn: (id: number) => undoEdit(id),
    // Names, counts and pages everywhere may change back.
    onSettled: () => client.invalidateQueries(),
  });
  return (
    <SettingsSection id="catalog-edits" title="Catalog edits">
      <p className="muted">
        Merges and fixes of artists, albums and songs by this server's admins. Undo restores what an edit changed; undo a later edit of the same entries first.
      </p>
      {undo.isError && (
        <p className="error" role="alert">
          {editFailure(undo.error)}
        </p>
      )}
      {edits.isPending ? (
        <Loading label="Loading the edit log…" />
      ) : edits.isError ? (
        <ErrorNote error={edits.error} />
      ) : edits.data.pages[0]?.edits.length === 0 ? (
        <Empty>No catalog edits yet. Fix or merge an artist, album or song from its page.</Empty>
      ) : (
        <ol className="plays edit-log">
          {edits.data.pages
            .flatMap((page) => page.edits)
            .map((edit) => (
              <li key={edit.id} className="play">
                <div className="play-text">
                  <span className={edit.undone ? 'muted' : undefined}>{sentence(edit.summary)}</span>
                  <div className="muted small">
                    {edit.handle ?? 'a deleted account'} · <time dateTime={edit.createdAt}>{formatDate(edit.createdAt)}</time>
                    {edit.undoneAt && <> · undone {formatDate(edit.undoneAt)}</>}
                  </div>
                </div>
                {!edit.undone && (
                  <button type="button" className="link" disabled={undo.isPending} aria-label={`Undo: ${edit.summary}`} onClick={() => undo.mutate(edit.id)}>
                    Undo
                  </button>
                )}
              </li>
            ))}
        </ol>
      )}
      {edits.hasNextPage && (
        <button type="button" className="secondary" onClick={() => void edits.fetchNextPage()} disabled={edits.isFetchingNextPage}>
          {edits.isFetchingNextPage ? 'Loading…' : 'Older edits'}
        </button>
      )}
    </SettingsSection>
  );
}
