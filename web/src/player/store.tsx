/**
 * What the player plays, kept above the routed pages (App.tsx), so music goes on while the user
 * moves around the app. The queue is the server's play queue (pages/library/data.ts); this holds
 * the song playing in it, the play order (shuffle) and the repeat mode. Library views start a song
 * with `playAt`; the player bar (PlayerBar.tsx) plays it.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSession } from '../api/session.ts';
import { useQueue, type PlayAt } from '../pages/library/data.ts';
import type { Song } from '../pages/library/logic.ts';
import { nextRepeat, playOrder, type Repeat } from './order.ts';

/** The song playing: its queue index, a number per play (a new one restarts it), and whether to start at once. */
export interface Playing {
  index: number;
  song: Song;
  play: number;
  autoplay: boolean;
}

export interface PlayerStore {
  /** The queue as last read (empty until read, or when signed out). */
  entries: readonly Song[];
  playing: Playing | null;
  playAt: PlayAt;
  shuffle: boolean;
  toggleShuffle(): void;
  /** Queue indexes in the order they play. */
  order: readonly number[];
  repeat: Repeat;
  cycleRepeat(): void;
}

const NOTHING: PlayerStore = {
  entries: [],
  playing: null,
  playAt: () => {},
  shuffle: false,
  toggleShuffle: () => {},
  order: [],
  repeat: 'off',
  cycleRepeat: () => {},
};

const PlayerContext = createContext<PlayerStore>(NOTHING);

export const usePlayer = () => useContext(PlayerContext);

export function PlayerProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!session) return <PlayerContext.Provider value={NOTHING}>{children}</PlayerContext.Provider>;
  // Another user signing in in this tab starts with a fresh player.
  return <SignedInPlayer key={session.did}>{children}</SignedInPlayer>;
}

function SignedInPlayer({ children }: { children: ReactNode }) {
  const queue = useQueue();
  const entries = queue.data?.queue.entry ?? NOTHING.entries;
  const [playing, setPlaying] = useState<Playing | null>(null);
  const [shuffle, setShuffle] = useState(false);
  const [repeat, setRepeat] = useState<Repeat>('off');
  const [order, setOrder] = useState<number[]>([]);
  const playAt = useCallback<PlayAt>((songs, index) => {
    const song = songs[index];
    if (song) setPlaying((last) => ({ index, song, play: (last?.play ?? 0) + 1, autoplay: true }));
  }, []);
  // The play order follows the queue: shuffled afresh (the playing song first) when shuffle is turned on or the queue changes.
  const playingIndex = useRef<number | null>(null);
  playingIndex.current = playing?.index ?? null;
  useEffect(() => setOrder(playOrder(entries.length, shuffle, playingIndex.current)), [entries, shuffle]);
  // The queue's current song (another player's, or this one's before a reload) is where to resume, without starting it.
  const resumed = useRef(false);
  useEffect(() => {
    const data = queue.data?.queue;
    if (resumed.current || !data) return;
    resumed.current = true;
    const song = data.currentIndex === undefined ? undefined : data.entry[data.currentIndex];
    if (song) setPlaying((last) => last ?? { index: data.currentIndex!, song, play: 1, autoplay: false });
  }, [queue.data]);
  const store = useMemo<PlayerStore>(
    () => ({
      entries,
      playing,
      playAt,
      shuffle,
      toggleShuffle: () => setShuffle((on) => !on),
      order,
      repeat,
      cycleRepeat: () => setRepeat(nextRepeat),
    }),
    [entries, playing, playAt, shuffle, order, repeat],
  );
  return <PlayerContext.Provider value={store}>{children}</PlayerContext.Provider>;
}
