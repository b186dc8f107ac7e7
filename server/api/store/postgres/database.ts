// The PostgreSQL connections every store module shares: a pool, the statements of the current
// request (its transaction's connection, found through async context, or any pooled connection
// outside one), and the one-transaction-per-request helper.
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { isDatabaseUnavailable } from '../../faults.ts';
import type { BeforeCommit, Param, Row, Statements, TransactionOptions } from '../db.ts';
import { GroupCommits, queuedJob, type Job } from '../groupCommit.ts';
import { BatchedReads } from './batchedReads.ts';
import { postgresLiteralStatement, postgresLiterals } from './dialect.ts';
import { isStalePlan, NamedStatements, type Write } from './namedStatements.ts';
import { poolOf } from './pool.ts';

/**
 * Write transactions run one at a time across every instance on the database (a transaction-scoped
 * advisory lock), as they do on SQLite: the services check-then-write (next action number, next
 * snapshot index, current policy version) in their transactions, which READ COMMITTED alone would
 * let two instances interleave. Reads take no lock. Concurrent transactions (see concurrent())
 * take it shared: they run alongside each other, never alongside a transaction that holds it whole.
 */
export const WRITE_LOCK = 0x63657601;

/** A concurrent transaction's writes, waiting for a commit. */
interface Writes {
  statements: Write[];
  /** TransactionOptions.lockOrder. */
  lockOrder: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Where the statements of the current async context go: the connection of a transaction that
 * holds the write lock, or the writes a concurrent transaction collects for its commit. In a
 * concurrent commit's BeforeCommit, reads go to its connection and writes wait (`deferred`) to go
 * in one message with COMMIT, or with the next read.
 */
type Context = { client: pg.PoolClient; deferred?: string[] } | { writes: Write[] };

const READ_AFTER_WRITE =
  'a concurrent transaction read after a write: its writes are applied at commit, so its reads come first';

/** One connection for the groups under the whole write lock, one for the concurrent transactions' commits: each commits one group at a time. */
const COMMITTERS = 2;

export class PostgresDatabase {
  readonly pool: pg.Pool;
  /**
   * The connections commits run on, apart from the pool: a commit waiting for a connection behind
   * the reads of every request in flight held up the whole group it commits (measured: 20-40 ms a
   * commit under 50 concurrent writes, most of it waiting for a connection).
   */
  private readonly committers: pg.Pool;
  private readonly inTransaction = new AsyncLocalStorage<Context>();
  private readonly groups = new GroupCommits<Job>((group) => this.commitGroup(group));
  /** The writes of concurrent transactions, committed together as they finish. */
  private readonly writeGroups = new GroupCommits<Writes>((group) => this.commitWrites(group));
  private readonly names = new NamedStatements();
  readonly statements: Statements;
  /** Run in each concurrent commit's transaction after its writes, before COMMIT (derived values kept on write). */
  private readonly beforeCommit: BeforeCommit | undefined;

  /**
   * `beforeCommit` runs inside each commit of concurrent transactions, after their writes and on
   * their connection: what the store derives from the rows they wrote is stored in the same
   * transaction, once per group rather than once per write.
   */
  constructor(url: string, connections: number, beforeCommit?: BeforeCommit) {
    this.beforeCommit = beforeCommit;
    this.pool = poolOf(url, connections);
    this.committers = poolOf(url, COMMITTERS);
    /**
     * The connection of the current transaction, if any, with the writes waiting on it sent first;
     * a concurrent transaction's read after a write is refused.
     */
    const clientForRead = async (): Promise<pg.PoolClient | undefined> => {
      const context = this.inTransaction.getStore();
      if (context === undefined) return undefined;
      if ('writes' in context) {
        if (context.writes.length > 0) throw new Error(READ_AFTER_WRITE);
        return undefined;
      }
      if (context.deferred !== undefined && context.deferred.length > 0)
        await context.client.query(context.deferred.splice(0).join(';\n'));
      return context.client;
    };
    const query = async <T extends Row>(sql: string, params: Param[]): Promise<pg.QueryResult<T>> => {
      const client = await clientForRead();
      const page = this.names.pageOf(sql, params);
      const statement = this.names.prepared(page.sql);
      try {
        return await (client ?? this.pool).query<T>({ ...statement, values: page.params as unknown[] });
      } catch (error) {
        if (statement.name === undefined || !isStalePlan(error)) throw error;
        // A migration (another instance's, starting) changed a table under the plan: the statement
        // goes unnamed from now on, and is asked again unless its transaction is already aborted.
        this.names.unname(page.sql, statement);
        if (client !== undefined) throw error;
        return await this.pool.query<T>(statement.text, page.params as unknown[]);
      }
    };
    const batched = new BatchedReads(this.pool, this.names, query);
    this.statements = {
      run: async (sql, ...params) => {
        const context = this.inTransaction.getStore();
        if (context !== undefined && 'writes' in context)
          throw new Error('a concurrent transaction writes with write(), whose count it cannot read');
        return { changes: (await query(sql, params)).rowCount ?? 0 };
      },
      write: async (sql, ...params) => {
        const context = this.inTransaction.getStore();
        if (context !== undefined && 'writes' in context)
          context.writes.push({ sql, literals: postgresLiterals(params) });
        else if (context?.deferred !== undefined) context.deferred.push(postgresLiteralStatement(sql, params));
        else await query(sql, params);
      },
      get: async <T extends Row>(sql: string, ...params: Param[]) => (await query<T>(sql, params)).rows[0],
      all: async <T extends Row>(sql: string, ...params: Param[]) => (await query<T>(sql, params)).rows,
      allBatched: async <T extends Row>(sql: string, ...params: Param[]) => {
        if (this.inTransaction.getStore() !== undefined || this.names.executeNameOf(sql) === undefined)
          return (await query<T>(sql, params)).rows;
        return (await batched.read(sql, params)) as T[];
      },
      allEach: async (reads) => {
        if (reads.length === 1) return [(await query(reads[0][0], reads[0].slice(1))).rows];
        const client = await clientForRead();
        const text = reads.map(([sql, ...params]) => postgresLiteralStatement(sql, params)).join(';\n');
        // Several statements in one message answer one result each.
        const results = (await (client ?? this.pool).query(text)) as unknown as Array<pg.QueryResult<Row>>;
        return results.map((result) => result.rows);
      },
    };
  }

  /**
   * Runs `work` in one transaction, answered once committed (and so durable); a transaction
   * started inside joins it.
   *
   * Group commit (store/groupCommit.ts), as on SQLite (store/sqlite/database.ts): the transactions queued in one turn of the event loop
   * run in one database transaction under one write lock, each inside its own savepoint, so a
   * failing one rolls back alone and the group shares one commit and one log flush. Writes take
   * turns across instances (WRITE_LOCK) either way; without groups each waited for the one before
   * it to flush the log, which held one instance to a few dozen writes a second.
   */
  transaction<T>(work: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (this.inTransaction.getStore() !== undefined) return work();
    if (options.concurrent === true) return this.concurrent(work, options.lockOrder ?? '');
    return queuedJob(this.groups, work);
  }

  /** Runs a group in one transaction, each job in its own savepoint; settles each job once the group has committed. */
  private async commitGroup(group: readonly Job[]): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.committers.connect();
    } catch (error) {
      for (const job of group) job.reject(error);
      return;
    }
    const done: Array<{ job: Job; result: unknown }> = [];
    let broken: unknown;
    try {
      // Every statement is a round trip: the fixed ones go together (simple queries of several
      // statements), and a group of one needs no savepoint.
      const savepoints = group.length > 1;
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK})${savepoints ? '; SAVEPOINT job' : ''}`);
      for (const [i, job] of group.entries()) {
        const next = i === group.length - 1 ? '' : '; SAVEPOINT job';
        try {
          const result = await this.inTransaction.run({ client }, job.work);
          if (savepoints) await client.query(`RELEASE SAVEPOINT job${next}`);
          done.push({ job, result });
        } catch (error) {
          job.reject(error);
          if (!savepoints) throw error;
          // Fails the whole group when the connection itself is gone (caught below).
          await client.query(`ROLLBACK TO SAVEPOINT job; RELEASE SAVEPOINT job${next}`);
        }
      }
      await client.query('COMMIT');
      for (const { job, result } of done) job.resolve(result);
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError;
      }
      // Every job of the group fails with it: none was answered yet (a job settled already stays so).
      for (const job of group) job.reject(error);
    } finally {
      // A connection that could not roll back is dropped rather than handed to the next request.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  /**
   * A concurrent transaction (TransactionOptions): `work` reads committed state on any pooled
   * connection, alongside other requests, and collects its writes; they are applied at commit, in
   * one transaction with the writes of every concurrent transaction finished meanwhile (the
   * statements go in one message, their values written in; then beforeCommit). So the rows those
   * writes lock (a trail's and its flow's counters) stay locked only while committing, and instances write in
   * parallel under the write lock held shared. Answered once committed; nothing is written if
   * `work` fails.
   */
  private async concurrent<T>(work: () => Promise<T>, lockOrder: string): Promise<T> {
    const writes: Write[] = [];
    const result = await this.inTransaction.run({ writes }, work);
    if (writes.length === 0) return result;
    await new Promise<void>((resolve, reject) =>
      this.writeGroups.add({ statements: writes, lockOrder, resolve, reject }),
    );
    return result;
  }

  /**
   * Commits a group's writes in one transaction. If it fails, each transaction's writes are tried
   * again on their own, so only the one at fault fails (as a savepoint each would, without a round
   * trip each in the common case); a database out of reach fails them all at once.
   */
  private async commitWrites(queued: readonly Writes[]): Promise<void> {
    const group = [...queued].sort((a, b) => (a.lockOrder < b.lockOrder ? -1 : a.lockOrder > b.lockOrder ? 1 : 0));
    try {
      await this.commitStatements(group.flatMap((writes) => writes.statements));
      for (const writes of group) writes.resolve();
      return;
    } catch (error) {
      if (group.length === 1 || isDatabaseUnavailable(error)) {
        for (const writes of group) writes.reject(error);
        return;
      }
    }
    for (const writes of group) {
      try {
        await this.commitStatements(writes.statements);
        writes.resolve();
      } catch (error) {
        writes.reject(error);
      }
    }
  }

  /**
   * Runs `statements` in one transaction under the write lock held shared: one message with
   * beforeCommit's read at its end, then beforeCommit's reads on the same connection, then its
   * writes with COMMIT. The rows the writes lock stay locked for these round trips only.
   */
  private async commitStatements(writes: readonly Write[]): Promise<void> {
    const client = await this.committers.connect();
    let broken: unknown;
    try {
      const statements = await this.names.executable(client, writes);
      const first = ['BEGIN', `SELECT pg_advisory_xact_lock_shared(${WRITE_LOCK})`, ...statements];
      if (this.beforeCommit !== undefined) first.push(this.beforeCommit.read);
      const results = (await client.query(first.join(';\n'))) as unknown as Array<pg.QueryResult<Row>>;
      const deferred: string[] = [];
      // The writes locked the rows they touched (a trail's row, by the update of its activity), so
      // what beforeCommit reads from them includes every other commit's that came before, on any instance.
      const beforeCommit = this.beforeCommit;
      if (beforeCommit !== undefined)
        await this.inTransaction.run({ client, deferred }, () =>
          beforeCommit.run(this.statements, results[results.length - 1].rows),
        );
      // A failing write skips the COMMIT after it in the same message, and the transaction rolls back below.
      await client.query([...deferred, 'COMMIT'].join(';\n'));
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError;
      }
      throw error;
    } finally {
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  /** Whether the database answers now (the readiness probe). */
  async reachable(): Promise<boolean> {
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.groups.idle();
    await this.writeGroups.idle();
    await this.committers.end();
    await this.pool.end();
  }
}
