/** The form correcting one of the user's plays: artist, title, album and time; checked here first, then by the server. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { procedure, type Input } from '../api/xrpc.ts';
import { DialogFooter, EditDialog } from './EditDialog.tsx';
import type { ScrobbleView } from './ScrobbleList.tsx';
import { correctionFailure, correctionInput, draftOf, MAX_NAME_LENGTH, type PlayDraft } from './play-correction.ts';

export default function CorrectPlayDialog({ play, onClose }: { play: ScrobbleView; onClose: () => void }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<PlayDraft>(() => draftOf(play));
  const [problem, setProblem] = useState<string | null>(null);
  const correct = useMutation({
    mutationFn: (input: Input<'app.svc.scrobble.updateScrobble'>) => procedure('app.svc.scrobble.updateScrobble', input),
    // Counts, charts and every list of plays may change: all of them refresh.
    onSuccess: () => {
      void client.invalidateQueries();
      onClose();
    },
    onError: (error) => setProblem(correctionFailure(error)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = correctionInput(play, draft);
    if ('problem' in checked) setProblem(checked.problem);
    else {
      setProblem(null);
      correct.mutate(checked.input);
    }
  };
  const field = (name: keyof PlayDraft) => ({
    value: draft[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setDraft({ ...draft, [name]: event.target.value }),
  });
  return (
    <EditDialog title={`Correct the play of ${play.title}`} onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <p className="muted small">The play moves to the song these names match, as a new play of them would.</p>
        <label>
          Artist
          <input {...field('artist')} maxLength={MAX_NAME_LENGTH} />
        </label>
        <label>
          Title
          <input {...field('title')} maxLength={MAX_NAME_LENGTH} />
        </label>
        <label>
          Album
          <input {...field('album')} maxLength={MAX_NAME_LENGTH} />
        </label>
        <label>
          Played at (your time)
          <input type="datetime-local" step={1} {...field('time')} />
        </label>
        <DialogFooter problem={problem} pending={correct.isPending} saveLabel="Save correction" onCancel={onClose} />
      </form>
    </EditDialog>
  );
}
