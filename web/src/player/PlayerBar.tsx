/**
 * The player bar at the bottom of every page (App.tsx mounts it outside the routed page, so music
 * goes on across pages). It plays the song the store (store.tsx) says through a signed stream URL,
 * loads the next one ahead in a second, hidden <audio> and plays that element when the song ends (so
 * no network wait comes between songs), records now-playing when a play starts, the play once it
 * counts (pages/library/logic.ts's rule) and, when it ends, how long it was really listened to
 * (play-run.ts), and answers the keyboard shortcuts and the system's media controls.
 */
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { procedure } from '../api/xrpc.ts';
import { ErrorNote, Loading } from '../components/ui.tsx';
import { formatDuration, locate, scrobbleInput } from '../pages/library/logic.ts';
import { handleSystemControls, showOnSystem } from './media-session.ts';
import { PlayRun } from './play-run.ts';
import { playOrder, preloadDue, preloadIndex, stepIn, tooShortToCount } from './order.ts';
import { SHORTCUT_HINT, shortcutFor } from './shortcuts.ts';
import { usePlayer, type Playing } from './store.tsx';
import { coverUrl, streamUrl } from './stream-urls.ts';
import { Artwork } from '../components/Artwork.tsx';
import { Link } from '../router.tsx';

/** How long a recorded play was listened to: sent when it ends, by a request that survives the page closing. */
const sendPlayedTime = (id: string, playedMs: number) => void procedure('app.svc.scrobble.updateScrobble', { id, playedMs }, true).catch(() => {});

const QueueView = lazy(() => import('../pages/library/Queue.tsx').then((m) => ({ default: m.QueueView })));

/** Previous restarts the song instead once this far into it, as players do. */
const RESTART_AFTER_SECONDS = 3;
const VOLUME_KEY = 'earshot.playerVolume';

/**
 * An <audio> element: its song's signed URL, and a key that stays with the element, so the one
 * loaded ahead keeps its loaded bytes when it becomes the one playing (React keeps the element).
 */
interface Loaded {
  key: number;
  songId: string;
  url: string;
}

/** How far the element has loaded, in seconds from the start. */
const bufferedUntil = (element: HTMLAudioElement) => (element.buffered.length > 0 ? element.buffered.end(element.buffered.length - 1) : 0);

function storedVolume(): number {
  const stored = Number(localStorage.getItem(VOLUME_KEY) ?? '1');
  return Number.isFinite(stored) && stored >= 0 && stored <= 1 ? stored : 1;
}

export function PlayerBar() {
  const store = usePlayer();
  const [queueOpen, setQueueOpen] = useState(false);
  if (!store.playing && store.entries.length === 0) return null;
  return (
    <section className="player-bar" aria-label="Player">
      {queueOpen && (
        <div className="player-queue" id="player-queue">
          <div className="library-inline">
            <h2>Queue</h2>
            <button type="button" className="secondary" onClick={() => setQueueOpen(false)}>
              Close
            </button>
          </div>
          <Suspense fallback={<Loading label="Loading the queue…" />}>
            <QueueView />
          </Suspense>
        </div>
      )}
      {store.playing ? (
        <Deck playing={store.playing} queueOpen={queueOpen} onQueue={() => setQueueOpen((open) => !open)} />
      ) : (
        <div className="player-deck">
          {store.entries.length === 0 ? (
            <span className="muted">
              Nothing is playing. Pick an album in your <Link href="/library">Library</Link>.
            </span>
          ) : (
            <>
              <span className="muted">Nothing is playing.</span>
              <button type="button" onClick={() => store.playAt(store.entries, store.order[0] ?? 0)}>
                Play the queue
              </button>
              <button type="button" className="secondary" aria-expanded={queueOpen} aria-controls="player-queue" onClick={() => setQueueOpen((open) => !open)}>
                Queue
              </button>
            </>
          )}
        </div>
      )}
    </section>
  );
}

function Deck({ playing, queueOpen, onQueue }: { playing: Playing; queueOpen: boolean; onQueue: () => void }) {
  const { entries, order: storeOrder, repeat, shuffle, playAt, toggleShuffle, cycleRepeat } = usePlayer();
  const audio = useRef<HTMLAudioElement>(null);
  const run = useRef({ play: -1, listening: new PlayRun(sendPlayedTime), startedAt: null as Date | null });
  const keys = useRef(0);
  /** The element of this play (none until its URL is signed), and the next song's, loading ahead. */
  const [src, setSrc] = useState<(Loaded & { play: number }) | null>(null);
  const [ahead, setAhead] = useState<Loaded | null>(null);
  const [nearEnd, setNearEnd] = useState(false);
  const [streamError, setStreamError] = useState<unknown>(null);
  const [paused, setPaused] = useState(true);
  const [position, setPosition] = useState(0);
  const [volume, setVolume] = useState(storedVolume);
  const nowPlaying = useMutation({ mutationFn: (id: string) => procedure('app.svc.library.updateNowPlaying', { id }) });
  const scrobble = useMutation({
    mutationFn: async ({ input, play }: { input: Parameters<typeof scrobbleInput>; play: PlayRun }) => {
      const outcome = await procedure('app.svc.scrobble.createScrobble', scrobbleInput(...input));
      if (outcome.id) play.recorded(outcome.id);
      return outcome;
    },
  });
  const song = playing.song;

  const ids = entries.map((entry) => entry.id);
  const current = locate(ids, { index: playing.index, id: song.id }) ?? playing.index;
  const order = storeOrder.length === entries.length ? storeOrder : playOrder(entries.length, false, null);
  const following = (step: 1 | -1, ended = false) => stepIn(order, current, step, repeat, ended);
  const nextIndex = following(1);
  const aheadIndex = preloadIndex(order, current, repeat);
  const aheadId = aheadIndex === null ? null : (entries[aheadIndex]?.id ?? null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new play starts over; `scrobble` is a new object every render
  useEffect(() => {
    run.current.listening.end(); // the play before, if any: skipped, or ended
    run.current = { play: playing.play, listening: new PlayRun(sendPlayedTime), startedAt: null };
    setStreamError(null);
    setPosition(0);
    setNearEnd(false);
    scrobble.reset();
    showOnSystem(song);
    setAhead(null);
    // The song loaded ahead: its element becomes this play's, already loaded.
    if (ahead?.songId === song.id) {
      setSrc({ ...ahead, play: playing.play });
      return;
    }
    let cancelled = false;
    streamUrl(song.id).then(
      (url) => !cancelled && setSrc({ key: ++keys.current, songId: song.id, url, play: playing.play }),
      (error: unknown) => !cancelled && setStreamError(error),
    );
    return () => {
      cancelled = true;
    };
  }, [playing.play]);

  // Each play starts once its element is in place (at once for the element loaded ahead), at the volume set meanwhile.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new element (or the same one for a new play) is what starts it
  useEffect(() => {
    const element = audio.current;
    if (!element || src?.play !== playing.play) return;
    element.volume = volume;
    if (playing.autoplay) void element.play().catch(() => {});
  }, [src]);

  useEffect(() => {
    if (audio.current) audio.current.volume = volume;
    localStorage.setItem(VOLUME_KEY, String(volume));
  }, [volume]);

  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => {});
    else element.pause();
  };
  const goBack = () => {
    const element = audio.current;
    const previous = following(-1);
    if (element && element.currentTime > RESTART_AFTER_SECONDS) element.currentTime = 0;
    else if (previous !== null) playAt(entries, previous);
  };
  const goNext = () => nextIndex !== null && playAt(entries, nextIndex);
  const seekTo = (seconds: number) => {
    if (audio.current) audio.current.currentTime = seconds;
  };
  const duration = (element: HTMLAudioElement) => (Number.isFinite(element.duration) ? element.duration : song.duration);
  /**
   * A reading of the element for this play's listening time (a stall needs none: the position stands
   * still); the one that makes the play count records it.
   */
  const read = (element: HTMLAudioElement) => {
    const { listening: play, startedAt } = run.current;
    const playing = !element.paused && !element.seeking && !element.ended;
    const counts = play.tracker.update(element.currentTime, playing, performance.now(), duration(element), element.playbackRate);
    if (counts && startedAt) scrobble.mutate({ input: [song, startedAt, duration(element)], play });
  };

  // The latest controls for listeners set up once.
  const controls = useRef({ toggle, goBack, goNext, seekTo, read });
  controls.current = { toggle, goBack, goNext, seekTo, read };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { key, shiftKey, ctrlKey, metaKey, altKey } = event;
      const shortcut = shortcutFor({ key, shiftKey, ctrlKey, metaKey, altKey, target: event.target as HTMLElement | null });
      if (!shortcut) return;
      event.preventDefault();
      if (shortcut === 'toggle') controls.current.toggle();
      else if (shortcut === 'next') controls.current.goNext();
      else controls.current.goBack();
    };
    document.addEventListener('keydown', onKey);
    // Leaving the page ends the play: its listening time goes with a request that outlives the page.
    const onHide = () => {
      if (audio.current) controls.current.read(audio.current);
      run.current.listening.end();
    };
    window.addEventListener('pagehide', onHide);
    const unwire = handleSystemControls({
      play: () => void audio.current?.play().catch(() => {}),
      pause: () => audio.current?.pause(),
      previous: () => controls.current.goBack(),
      next: () => controls.current.goNext(),
      seekTo: (seconds) => controls.current.seekTo(seconds),
    });
    return () => {
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('pagehide', onHide);
      run.current.listening.end();
      unwire();
      showOnSystem(null);
    };
  }, []);

  // Near the end (or once this song is wholly loaded), the song that plays next is loaded ahead in a hidden element.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `ahead` is read only to skip loading the same song twice
  useEffect(() => {
    if (!nearEnd || !aheadId || ahead?.songId === aheadId) return;
    let cancelled = false;
    streamUrl(aheadId).then(
      (url) => !cancelled && setAhead({ key: ++keys.current, songId: aheadId, url }),
      () => {}, // Not loaded ahead: the song loads when it plays, as any other.
    );
    return () => {
      cancelled = true;
    };
  }, [nearEnd, aheadId]);

  const length = song.duration ?? 0;
  const cover = coverUrl(song);
  const repeatLabel = { off: 'Repeat: off', all: 'Repeat: the queue', one: 'Repeat: this song' }[repeat];
  return (
    <div className="player-deck">
      <div className="player-now">
        <Artwork src={cover ?? undefined} name={song.album ?? song.title} size={48} />
        <div className="play-text">
          <div className="title">{song.title}</div>
          <div className="muted small">
            {song.artist}
            {song.album ? ` · ${song.album}` : ''}
          </div>
        </div>
      </div>
      {/* One keyed list, so the element loaded ahead is the same element once it plays. */}
      {[src?.play === playing.play ? src : null, ahead].map((loaded) =>
        !loaded ? null : loaded === ahead ? (
          // biome-ignore lint/a11y/useMediaCaption: music has no captions; the song's title and artist are shown beside the player
          <audio
            key={loaded.key}
            src={loaded.url}
            preload="auto"
            hidden
            onError={() => setAhead(null)} // Then the song loads when it plays, and says so if it cannot.
          />
        ) : (
          // biome-ignore lint/a11y/useMediaCaption: music has no captions; the song's title and artist are shown beside the player
          <audio
            key={loaded.key}
            ref={audio}
            src={loaded.url}
            preload="auto"
            onPlay={() => setPaused(false)}
            onPause={(event) => {
              setPaused(true);
              read(event.currentTarget);
            }}
            onPlaying={(event) => {
              read(event.currentTarget);
              if (run.current.startedAt) return;
              run.current.startedAt = new Date();
              nowPlaying.mutate(song.id);
            }}
            onSeeking={(event) => read(event.currentTarget)}
            onTimeUpdate={(event) => {
              const element = event.currentTarget;
              setPosition(element.currentTime);
              if (preloadDue(element.currentTime, duration(element), bufferedUntil(element))) setNearEnd(true);
              read(element);
            }}
            onEnded={(event) => {
              read(event.currentTarget);
              run.current.listening.end();
              const after = following(1, true);
              if (after !== null) playAt(entries, after);
            }}
            onError={() => setStreamError(new Error('This song could not be played.'))}
          />
        ),
      )}
      <div className="player-controls">
        <button type="button" className="secondary" aria-pressed={shuffle} onClick={toggleShuffle} title="Shuffle the queue">
          Shuffle
        </button>
        <button type="button" className="secondary" onClick={goBack} aria-label="Previous" title="Previous (Shift+P)">
          <Icon path="M6 5h2v14H6zM20 5v14L9 12z" />
        </button>
        <button type="button" onClick={toggle} aria-label={paused ? 'Play' : 'Pause'} title={`${paused ? 'Play' : 'Pause'} (Space)`} disabled={!src}>
          <Icon path={paused ? 'M7 4v16l13-8z' : 'M6 4h4v16H6zM14 4h4v16h-4z'} />
        </button>
        <button type="button" className="secondary" onClick={goNext} disabled={nextIndex === null} aria-label="Next" title="Next (Shift+N)">
          <Icon path="M16 5h2v14h-2zM4 5v14l11-7z" />
        </button>
        <button type="button" className="secondary" aria-pressed={repeat !== 'off'} onClick={cycleRepeat} aria-label={repeatLabel} title={repeatLabel}>
          {repeat === 'one' ? 'Repeat 1' : 'Repeat'}
        </button>
        <button type="button" className="secondary" aria-expanded={queueOpen} aria-controls="player-queue" onClick={onQueue}>
          Queue
        </button>
      </div>
      <div className="player-seek">
        <span className="muted small">{formatDuration(position)}</span>
        <input
          type="range"
          aria-label="Position"
          min={0}
          max={Math.max(length, position)}
          step={1}
          value={position}
          onChange={(event) => seekTo(Number(event.target.value))}
        />
        <span className="muted small">{formatDuration(length)}</span>
        <input
          type="range"
          className="player-volume"
          aria-label="Volume"
          min={0}
          max={1}
          step={0.05}
          value={volume}
          onChange={(event) => setVolume(Number(event.target.value))}
        />
      </div>
      <p className="muted small player-notes" aria-live="polite">
        {tooShortToCount(song.duration)
          ? 'This track is 30 seconds or shorter, so its plays are never recorded (the Last.fm rule). '
          : scrobble.isSuccess
            ? scrobble.data.status === 'ignored'
              ? `Play not recorded: ${scrobble.data.reason ?? 'ignored'}. `
              : 'Play recorded. '
            : ''}
        <span className="player-hint">{SHORTCUT_HINT}</span>
      </p>
      {streamError !== null && <ErrorNote error={streamError} />}
      {nowPlaying.isError && <ErrorNote error={nowPlaying.error} />}
      {scrobble.isError && <ErrorNote error={scrobble.error} />}
    </div>
  );
}

/** A control's picture, drawn in the text colour (symbol glyphs are missing from many fonts). */
function Icon({ path }: { path: string }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d={path} fill="currentColor" />
    </svg>
  );
}
