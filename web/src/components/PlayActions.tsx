/** What the owner of a play can do with it: correct it (a form in its own chunk, loaded when opened) or delete it. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { procedure } from '../api/xrpc.ts';
import type { ScrobbleView } from './ScrobbleList.tsx';
import { ErrorNote } from './ui.tsx';

const CorrectPlayDialog = lazy(() => import('./CorrectPlayDialog.tsx'));

export function OwnPlayActions({ play }: { play: ScrobbleView }) {
  const client = useQueryClient();
  const [correcting, setCorrecting] = useState(false);
  const remove = useMutation({
    mutationFn: () => procedure('app.svc.scrobble.deleteScrobble', { id: play.id }),
    onSuccess: () => client.invalidateQueries(),
  });
  return (
    <div className="play-actions">
      <button type="button" className="link" aria-label={`Correct the play of ${play.title}`} onClick={() => setCorrecting(true)}>
        Correct
      </button>
      <button
        type="button"
        className="link danger"
        aria-label={`Delete the play of ${play.title}`}
        onClick={() => confirm(`Delete this play of ${play.title}?`) && remove.mutate()}
      >
        Delete
      </button>
      {remove.isError && <ErrorNote error={remove.error} />}
      {correcting && (
        <Suspense fallback={null}>
          <CorrectPlayDialog play={play} onClose={() => setCorrecting(false)} />
        </Suspense>
      )}
    </div>
  );
}
