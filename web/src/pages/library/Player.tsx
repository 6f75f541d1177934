/**
 * The in-browser player: an <audio> element over /rest/stream, moving through the play queue. It
 * records now-playing when a play starts and the play itself once it counts (logic.ts's rule).
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { SignedIn } from '../../api/session.ts';
import { procedure } from '../../api/xrpc.ts';
import { ErrorNote } from '../../components/ui.tsx';
import { Link } from '../../router.tsx';
import type { PlayAt } from './data.ts';
import { neighbour, PlayTracker, scrobbleInput, type Song } from './logic.ts';
import { coverUrl, keyProblem, storedKey, storeKey, streamUrl } from './player-key.ts';

/** What the player holds: the queue index and song it plays, a number per play, and whether to start at once. */
export interface Playing {
  index: number;
  song: Song;
  play: number;
  autoplay: boolean;
}

/** Previous restarts the song instead once this far into it, as players do. */
const RESTART_AFTER_SECONDS = 3;

export function Player({ session, entries, playing, onPlay }: { session: SignedIn; entries: readonly Song[]; playing: Playing | null; onPlay: PlayAt }) {
  const [key, setKey] = useState(() => storedKey(session.did));
  const [keyNote, setKeyNote] = useState<string | null>(null);
  const chooseKey = (next: string | null, note: string | null = null) => {
    storeKey(session.did, next);
    setKey(next);
    setKeyNote(note);
  };
  return (
    <section className="library-player" aria-label="Player">
      {keyNote && (
        <p className="error" role="alert">
          {keyNote}
        </p>
      )}
      {key ? (
        <Deck
          key={key}
          session={session}
          apiKey={key}
          entries={entries}
          playing={playing}
          onPlay={onPlay}
          onKeyRefused={(problem) => chooseKey(null, `The player's API key stopped working: ${problem} Pick or create one again.`)}
        />
      ) : (
        <KeySetup handle={session.handle} onKey={(chosen) => chooseKey(chosen)} />
      )}
      {key && (
        <button type="button" className="link small" onClick={() => chooseKey(null)}>
          Forget this browser's player key
        </button>
      )}
    </section>
  );
}

/** Asked once per browser: the API key the player streams with, made here or pasted. */
function KeySetup({ handle, onKey }: { handle: string; onKey: (key: string) => void }) {
  const [pasted, setPasted] = useState('');
  const create = useMutation({
    mutationFn: () => procedure('app.svc.apikey.createApikey', { name: 'web player', description: "The web app's player in one browser" }),
    onSuccess: (created) => onKey(created.key),
  });
  const check = useMutation({
    mutationFn: async (candidate: string) => {
      const problem = await keyProblem(candidate, handle);
      if (problem) throw new Error(problem);
      return candidate;
    },
    onSuccess: onKey,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pasted.trim()) check.mutate(pasted.trim());
  };
  return (
    <div className="stack">
      <p>
        To play music here, the player needs one of your API keys: the music server's stream (Subsonic's <code>/rest/stream</code>) cannot use your sign-in. The
        key is kept in this browser only; remove it in <Link href="/settings">Settings</Link> to sign this player out.
      </p>
      <div>
        <button type="button" onClick={() => create.mutate()} disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create a key named “web player”'}
        </button>
      </div>
      {create.isError && <ErrorNote error={create.error} />}
      <form onSubmit={submit} className="library-inline">
        <label>
          Or use a key you have
          <input type="password" autoComplete="off" value={pasted} onChange={(event) => setPasted(event.target.value)} />
        </label>
        <button type="submit" className="secondary" disabled={check.isPending || !pasted.trim()}>
          {check.isPending ? 'Checking…' : 'Use this key'}
        </button>
      </form>
      {check.isError && <ErrorNote error={check.error} />}
    </div>
  );
}

function Deck({
  session,
  apiKey,
  entries,
  playing,
  onPlay,
  onKeyRefused,
}: {
  session: SignedIn;
  apiKey: string;
  entries: readonly Song[];
  playing: Playing | null;
  onPlay: PlayAt;
  onKeyRefused: (problem: string) => void;
}) {
  const audio = useRef<HTMLAudioElement>(null);
  const run = useRef({ play: -1, tracker: new PlayTracker(), startedAt: null as Date | null });
  const [streamError, setStreamError] = useState<string | null>(null);
  const nowPlaying = useMutation({ mutationFn: (id: string) => procedure('app.svc.library.updateNowPlaying', { id }) });
  const scrobble = useMutation({
    mutationFn: (input: Parameters<typeof scrobbleInput>) => procedure('app.svc.scrobble.createScrobble', scrobbleInput(...input)),
  });
  const play = playing?.play;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new play starts over; `scrobble` is a new object every render
  useEffect(() => {
    run.current = { play: play ?? -1, tracker: new PlayTracker(), startedAt: null };
    setStreamError(null);
    scrobble.reset();
  }, [play]); // only a new play starts over: `scrobble` is a new object every render

  if (!playing) {
    return (
      <div className="library-deck">
        <p className="muted">Nothing is playing. Play a song from the queue, or play a playlist or a folder.</p>
        {entries.length > 0 && (
          <button type="button" onClick={() => onPlay(entries, 0)}>
            Play the queue
          </button>
        )}
      </div>
    );
  }
  const ids = entries.map((entry) => entry.id);
  const at = { index: playing.index, id: playing.song.id };
  const previous = neighbour(ids, at, -1);
  const next = neighbour(ids, at, 1);
  const song = playing.song;
  const duration = (element: HTMLAudioElement) => (Number.isFinite(element.duration) ? element.duration : song.duration);
  const goBack = () => {
    const element = audio.current;
    if (element && element.currentTime > RESTART_AFTER_SECONDS) element.currentTime = 0;
    else if (previous !== null) onPlay(entries, previous);
  };
  const failed = async () => {
    setStreamError('This song could not be played.');
    const problem = await keyProblem(apiKey, session.handle).catch(() => null);
    if (problem) onKeyRefused(problem);
  };
  return (
    <div className="library-deck">
      <div className="library-now">
        {song.coverArt ? <img src={coverUrl(apiKey, song.coverArt)} alt="" width={56} height={56} /> : <span className="art" aria-hidden="true" />}
        <div className="play-text">
          <div className="title">{song.title}</div>
          <div className="muted small">
            {song.artist}
            {song.album ? ` · ${song.album}` : ''}
          </div>
        </div>
      </div>
      {/* biome-ignore lint/a11y/useMediaCaption: music has no captions; the song's title and artist are shown beside the player */}
      <audio
        key={playing.play}
        ref={audio}
        src={streamUrl(apiKey, song.id)}
        autoPlay={playing.autoplay}
        controls
        preload="metadata"
        onPlaying={() => {
          if (run.current.startedAt) return;
          run.current.startedAt = new Date();
          nowPlaying.mutate(song.id);
        }}
        onSeeking={() => run.current.tracker.seeked()}
        onTimeUpdate={(event) => {
          const element = event.currentTarget;
          const { tracker, startedAt } = run.current;
          if (startedAt && tracker.update(element.currentTime, duration(element))) scrobble.mutate([song, startedAt, duration(element)]);
        }}
        onEnded={() => next !== null && onPlay(entries, next)}
        onError={() => void failed()}
      />
      <div className="library-controls">
        <button type="button" className="secondary" onClick={goBack} disabled={previous === null}>
          Previous
        </button>
        <button type="button" className="secondary" onClick={() => next !== null && onPlay(entries, next)} disabled={next === null}>
          Next
        </button>
        <span className="muted small" aria-live="polite">
          {scrobble.isSuccess ? (scrobble.data.status === 'ignored' ? `Play not recorded: ${scrobble.data.reason ?? 'ignored'}` : 'Play recorded') : ''}
        </span>
      </div>
      {streamError && (
        <p className="error" role="alert">
          {streamError}
        </p>
      )}
      {nowPlaying.isError && <ErrorNote error={nowPlaying.error} />}
      {scrobble.isError && <ErrorNote error={scrobble.error} />}
    </div>
  );
}
