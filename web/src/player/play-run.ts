import { PlayTracker } from '../pages/library/logic.ts';

/**
 * One play in the player, from its first reading to its end: the play is recorded once it counts
 * (PlayTracker), before the song ends; how long it was really listened to is known only at its
 * end (the song ends, another starts, the page goes), and is then sent once for the recorded play,
 * whichever of the two (the recorded play's id, the end) comes last.
 */
export class PlayRun {
  readonly tracker = new PlayTracker();
  private id: string | null = null;
  private playedMs: number | null = null;
  private sent = false;

  constructor(private readonly send: (id: string, playedMs: number) => void) {}

  /** The server stored the play (or had it already) as `id`. */
  recorded(id: string): void {
    this.id = id;
    this.flush();
  }

  /** The play is over: its listening time is what the tracker measured up to now. Later calls change nothing. */
  end(): void {
    this.playedMs ??= this.tracker.playedMs;
    this.flush();
  }

  private flush(): void {
    if (this.sent || this.id === null || this.playedMs === null) return;
    this.sent = true;
    this.send(this.id, this.playedMs);
  }
}
