// Group commit, the one queue both engines commit through: what is queued in one turn of the event
// loop goes in one group, so concurrent requests share a commit (and its log flush) instead of each
// waiting for the one before it to flush. How a group is committed (savepoints on SQLite's write
// connection, a transaction under the write lock on PostgreSQL, the writes of concurrent
// transactions in one message) is the engine's.

/** A transaction waiting for its group: the work, and how to answer its caller. */
export interface Job {
  work: () => Promise<unknown>;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/** How many queued items one commit takes at most. */
const GROUP_LIMIT = 256;

export class GroupCommits<T> {
  private readonly queued: T[] = [];
  private draining: Promise<void> | undefined;
  private readonly commit: (group: T[]) => Promise<void>;

  /** `commit` takes one group at a time and settles its items itself. */
  constructor(commit: (group: T[]) => Promise<void>) {
    this.commit = commit;
  }

  add(item: T): void {
    this.queued.push(item);
    this.draining ??= this.drain();
  }

  /** Resolves once every item queued so far has been committed (or failed). */
  async idle(): Promise<void> {
    await this.draining;
  }

  /**
   * Commits the queued items group by group. A group waits one turn of the event loop, so the
   * requests read in that turn join it.
   */
  private async drain(): Promise<void> {
    try {
      while (this.queued.length > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        await this.commit(this.queued.splice(0, GROUP_LIMIT));
      }
    } finally {
      this.draining = undefined;
    }
  }
}

/** Queues `work` as a job of `commits`: its result, once its group has committed. */
export function queuedJob<T>(commits: GroupCommits<Job>, work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) =>
    commits.add({ work, resolve: resolve as (result: unknown) => void, reject }),
  );
}
