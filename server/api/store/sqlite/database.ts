// The SQLite connections every store module shares: pragmas for durability, a statement cache,
// and the one-transaction-per-request helper. Writes go through one connection whose
// transactions take turns; reads outside a transaction use a second connection, which (WAL) sees
// the last committed state and never another request's half-done transaction.
import { AsyncLocalStorage } from 'node:async_hooks';
import { open, type FileHandle } from 'node:fs/promises';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { BUSY_WAIT_MS, isBusy } from '../../faults.ts';
import type { Param, Row, Statements } from '../db.ts';
import { GroupCommits, queuedJob, type Job } from '../groupCommit.ts';

export class SqliteConnection {
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly readOnly: boolean;

  /** `file` undefined opens an in-memory database; `readOnly` refuses writes. */
  constructor(file: string | undefined, readOnly = false) {
    this.readOnly = readOnly;
    this.db = new DatabaseSync(file ?? ':memory:');
    if (file !== undefined) this.db.exec('PRAGMA journal_mode = WAL');
    // FULL: a commit is on disk before the response that acknowledges it leaves.
    this.db.exec('PRAGMA synchronous = FULL');
    this.db.exec('PRAGMA foreign_keys = ON');
    this.db.exec('PRAGMA busy_timeout = 5000');
    // The read connection answers every list: one page of a list visits a few hundred B-tree
    // pages (its rows and the rows they show), more than SQLite's default 2 MB cache holds once
    // the store outgrows it, so each request read them again from the operating system. 32 MB
    // keeps a busy list's pages in memory at any store size, within the server's memory target.
    if (readOnly) this.db.exec('PRAGMA cache_size = -32768');
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  run(sql: string, ...params: Param[]): { changes: number } {
    if (this.readOnly) throw new Error('a store write outside a transaction');
    return { changes: Number(this.statement(sql).run(...params).changes) };
  }

  get<T extends Row = Row>(sql: string, ...params: Param[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  all<T extends Row = Row>(sql: string, ...params: Param[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  close(): void {
    this.statements.clear();
    if (this.db.isOpen) this.db.close();
  }
}

/** The statements of one connection, whatever the async context (migrations run on the write connection alone). */
export function statementsOf(sql: SqliteConnection): Statements {
  return {
    run: (text, ...params) => Promise.resolve(sql.run(text, ...params)),
    write: (text, ...params) => Promise.resolve(void sql.run(text, ...params)),
    get: <T extends Row>(text: string, ...params: Param[]) => Promise.resolve(sql.get<T>(text, ...params)),
    all: <T extends Row>(text: string, ...params: Param[]) => Promise.resolve(sql.all<T>(text, ...params)),
    allEach: (reads) => settled(() => reads.map(([text, ...params]) => sql.all(text, ...params))),
    allBatched: <T extends Row>(text: string, ...params: Param[]) => Promise.resolve(sql.all<T>(text, ...params)),
  };
}

/** A statement's result as the async store interface gives it: a statement that throws rejects. */
function settled<T>(statement: () => T): Promise<T> {
  return new Promise((resolve) => resolve(statement()));
}

/**
 * The write connection and the read connection. Transactions take turns on the write connection,
 * so async work inside one never interleaves with another's statements; the store statements of
 * that work (found through async context) run on the write connection, every other statement on
 * the read connection, which (WAL) sees only committed state. Without a data directory both are
 * one in-memory connection, so a read there can see a transaction that has not committed yet.
 *
 * Group commit (groupCommit.ts): the transactions queued in one turn of the event loop run in one
 * database transaction, each inside its own savepoint, so they write shared pages to the write-ahead log
 * once. A commit only writes the log; its transactions settle once a sync of the log to disk that
 * started after the commit has finished. One sync runs at a time, off the event loop, and covers
 * every commit made before it started, so concurrent writes share it while each is still answered
 * only once it is durable.
 */
export class SqliteDatabase {
  private readonly inTransaction = new AsyncLocalStorage<SqliteConnection>();
  private readonly groups = new GroupCommits<Job>((group) => this.commitDurably(group));
  readonly statements: Statements;
  private readonly writer: SqliteConnection;
  private readonly reader: SqliteConnection;
  /** The write-ahead log to sync; undefined in memory, where nothing is synced. */
  private readonly log: string | undefined;
  private logHandle: Promise<FileHandle> | undefined;
  private committed = 0;
  private synced = 0;
  private syncing: Promise<void> | undefined;

  constructor(writer: SqliteConnection, reader: SqliteConnection, file: string | undefined) {
    this.writer = writer;
    this.reader = reader;
    this.log = file === undefined ? undefined : `${file}-wal`;
    // Commits leave the sync to durable(); checkpoints still sync the log and the database.
    if (file !== undefined) writer.db.exec('PRAGMA synchronous = NORMAL');
    // A lock held by another process is waited for in begin(), without blocking the event loop.
    writer.db.exec('PRAGMA busy_timeout = 50');
    const current = (): SqliteConnection => this.inTransaction.getStore() ?? this.reader;
    this.statements = {
      run: (sql, ...params) => settled(() => current().run(sql, ...params)),
      write: (sql, ...params) => settled(() => void current().run(sql, ...params)),
      get: (sql, ...params) => settled(() => current().get(sql, ...params)),
      all: (sql, ...params) => settled(() => current().all(sql, ...params)),
      allEach: (reads) => settled(() => reads.map(([sql, ...params]) => current().all(sql, ...params))),
      allBatched: (sql, ...params) => settled(() => current().all(sql, ...params)),
    };
  }

  /** Runs `work` in one transaction, settled once durable; a transaction started inside it joins it. */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction.getStore() !== undefined) return work();
    return queuedJob(this.groups, work);
  }

  /** Commits a group, then settles each of its jobs once the group is durable (the next group need not wait). */
  private async commitDurably(group: readonly Job[]): Promise<void> {
    const committed = await this.commitGroup(group);
    if (committed.length === 0) return;
    this.committed += 1;
    void this.durable(this.committed).then(
      () => committed.forEach(({ job, result }) => job.resolve(result)),
      (error: unknown) => committed.forEach(({ job }) => job.reject(error)),
    );
  }

  /**
   * Runs a group in one database transaction, each job inside its own savepoint: a failing job
   * rolls back to its savepoint and fails alone. The jobs that committed, with their results.
   */
  private async commitGroup(group: readonly Job[]): Promise<Array<{ job: Job; result: unknown }>> {
    const db = this.writer.db;
    const done: Array<{ job: Job; result: unknown }> = [];
    const failDone = (error: unknown): void => {
      for (const { job } of done.splice(0)) job.reject(error);
    };
    for (const [index, job] of group.entries()) {
      try {
        if (!db.isTransaction) await this.begin();
        db.exec('SAVEPOINT job');
      } catch (error) {
        // Locked by another process past the wait: the rest of the group would only wait again.
        for (const waiting of isBusy(error) ? group.slice(index) : [job]) waiting.reject(error);
        if (isBusy(error)) break;
        continue;
      }
      try {
        const result = await this.inTransaction.run(this.writer, job.work);
        db.exec('RELEASE job');
        done.push({ job, result });
      } catch (error) {
        job.reject(error);
        try {
          if (db.isTransaction) {
            db.exec('ROLLBACK TO job');
            db.exec('RELEASE job');
          } else {
            // SQLite rolled the whole transaction back (disk full, I/O error): the group's
            // earlier work went with it.
            failDone(error);
          }
        } catch (rollbackError) {
          if (db.isTransaction) db.exec('ROLLBACK');
          failDone(rollbackError);
        }
      }
    }
    try {
      if (db.isTransaction) db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      failDone(error);
    }
    return done;
  }

  /**
   * Begins the write transaction. While another process holds the database locked, it tries again
   * off the event loop (reads go on meanwhile), for at most BUSY_WAIT_MS; then SQLITE_BUSY is thrown.
   */
  private async begin(): Promise<void> {
    const deadline = Date.now() + BUSY_WAIT_MS;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      try {
        this.writer.db.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /** Resolves once commit number `commit` is on disk. */
  private async durable(commit: number): Promise<void> {
    if (this.log === undefined) return;
    while (this.synced < commit) {
      if (this.syncing === undefined) {
        const upTo = this.committed;
        this.syncing = this.syncLog().then(
          () => {
            this.synced = Math.max(this.synced, upTo);
            this.syncing = undefined;
          },
          (error: unknown) => {
            this.syncing = undefined;
            throw error;
          },
        );
      }
      await this.syncing;
    }
  }

  private async syncLog(): Promise<void> {
    this.logHandle ??= open(this.log!, 'r');
    await (await this.logHandle).datasync();
  }

  async close(): Promise<void> {
    await this.groups.idle();
    await this.syncing?.catch(() => undefined);
    if (this.logHandle !== undefined) await (await this.logHandle).close();
    this.reader.close();
    this.writer.close();
  }
}
