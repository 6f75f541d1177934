/**
 * Group commit for scrobblers' calls. Most submissions carry one listen, and each used to be a
 * transaction of its own: a commit, and on disk an fsync, per listen, plus a catalog lookup and
 * an INSERT each. Under many concurrent clients the commits, not the work, were the limit. Here
 * the calls waiting at one moment are stored together, as one batch through the one batch
 * ingest (so the duplicate rule, the matcher and the outcomes stay one code path), in one
 * transaction: one commit for all of them. Each caller is answered only once that transaction
 * has committed, with the outcomes of its own listens.
 *
 * The window is adaptive, with no timer: a call starts a group at once when fewer than
 * `inFlight` groups are being stored, so a lone submit waits for nothing; while they are busy,
 * calls queue. A group takes the waiting calls (up to `capacity` listens) only once its
 * transaction holds a connection, so calls that arrive while it waits for one (on PGlite, behind
 * other requests' statements) still join it. The busier the database, the larger the groups.
 * A group that fails (one listen's value the database refuses, say) is stored again call by
 * call, so only the call at fault fails; a conflict that aborts the transaction is retried by the
 * transaction itself (inTransaction). This is per process and holds nothing but a queue: several
 * processes on one PostgreSQL just run more transactions, each correct on its own.
 */
export class GroupCommit<Call extends { size: number }, Outcome> {
  private readonly waiting: Waiter<Call, Outcome>[] = [];
  private busy = 0;
  /** A group started but not yet holding its connection: it will take what waits, so a second would find nothing. */
  private starting = false;

  /**
   * `store` runs one transaction; once it holds a connection it calls `take` (as often as it
   * retries: the same calls each time) and answers those calls' outcomes in order, or throws.
   */
  constructor(
    private readonly store: (take: () => readonly Call[]) => Promise<Outcome[]>,
    private readonly limits: { capacity: number; inFlight: number },
  ) {}

  /** The call's outcome, once the transaction that stored it has committed. */
  submit(call: Call): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ call, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    if (this.starting || this.busy >= this.limits.inFlight || this.waiting.length === 0) return;
    this.starting = true;
    this.busy++;
    let group: Waiter<Call, Outcome>[] | undefined;
    const take = () => {
      if (!group) {
        group = this.waiting.splice(0, this.groupLength());
        this.starting = false;
        this.flush(); // more than one group's worth waiting: the next may start
      }
      return group;
    };
    void this.storeGroup(take).finally(() => {
      take(); // a store that failed before taking still releases its turn
      this.busy--;
      this.flush();
    });
  }

  /** How many of the first waiting calls fit in one group: at least one, however large. */
  private groupLength(): number {
    let listens = this.waiting[0]?.call.size ?? 0;
    let length = Math.min(1, this.waiting.length);
    while (length < this.waiting.length && listens + this.waiting[length]!.call.size <= this.limits.capacity) listens += this.waiting[length++]!.call.size;
    return length;
  }

  private async storeGroup(take: () => Waiter<Call, Outcome>[]): Promise<void> {
    try {
      const outcomes = await this.store(() => take().map(({ call }) => call));
      take().forEach((waiter, i) => waiter.resolve(outcomes[i]!));
    } catch (error) {
      const group = take();
      if (group.length === 1) return group[0]!.reject(error);
      // One call's bad value must not fail the others: each alone, so only its own fails.
      await Promise.all(group.map((waiter) => this.storeGroup(() => [waiter])));
    }
  }
}

interface Waiter<Call, Outcome> {
  call: Call;
  resolve(outcome: Outcome): void;
  reject(error: unknown): void;
}
