// The PostgreSQL connections every store module shares: a pool, the statements of the current
// request (its transaction's connection, found through async context, or any pooled connection
// outside one), and the one-transaction-per-request helper.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { BUSY_WAIT_MS, isDatabaseUnavailable } from '../../faults.ts';
import type { BeforeCommit, Param, Row, Statements, TransactionOptions } from '../db.ts';
import {
  postgresExecute,
  postgresLiteralStatement,
  postgresLiterals,
  postgresStatement,
  postgresStatementWith,
  withPageWrittenIn,
} from './dialect.ts';

/** Bounds, so that no request waits on the database without end. */
const POOL_WAIT_MS = 5_000;
const QUERY_MS = 30_000;

/**
 * Write transactions run one at a time across every instance on the database (a transaction-scoped
 * advisory lock), as they do on SQLite: the services check-then-write (next action number, next
 * snapshot index, current policy version) in their transactions, which READ COMMITTED alone would
 * let two instances interleave. Reads take no lock. Concurrent transactions (see concurrent())
 * take it shared: they run alongside each other, never alongside a transaction that holds it whole.
 */
export const WRITE_LOCK = 0x63657601;

/** Integers and JSON come back as SQLite gives them: numbers, and JSON text unparsed. */
const types: pg.CustomTypesConfig = {
  getTypeParser(oid, format): unknown {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (text: string) => Number(text);
    if (oid === pg.types.builtins.JSON || oid === pg.types.builtins.JSONB) return (text: string) => text;
    return pg.types.getTypeParser(oid, format);
  },
};

interface Job {
  work: () => Promise<unknown>;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/** A read waiting to go with the others of its turn of the event loop (Statements.allBatched). */
interface BatchedRead {
  sql: string;
  params: Param[];
  resolve: (rows: Row[]) => void;
  reject: (error: unknown) => void;
}

/** A write of a concurrent transaction: its statement, and its values as literals to send with it. */
interface Write {
  sql: string;
  literals: string[];
}

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

/** Distinct statements named (prepared once per connection) at most. */
const PREPARED_LIMIT = 500;

/** Of those, statements with a page written in at most: a client walking every page does not use up the names. */
const PAGE_STATEMENTS = 200;

/** How many queued transactions one commit takes at most. */
const GROUP_LIMIT = 256;

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
  private readonly queued: Job[] = [];
  private draining: Promise<void> | undefined;
  private readonly queuedWrites: Writes[] = [];
  private readonly statementNames = new Map<string, { text: string; name?: string }>();
  private pageStatements = 0;
  private applying: Promise<void> | undefined;
  private readonly batchedReads: BatchedRead[] = [];
  /** The statements each connection has prepared (PREPARE) for batched reads and concurrent writes, by name. */
  private readonly preparedOn = new WeakMap<pg.PoolClient, Set<string>>();
  private readonly executeNames = new Map<string, string>();
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
    const poolOf = (max: number): pg.Pool => {
      const pool = new pg.Pool({
        connectionString: url,
        max,
        connectionTimeoutMillis: POOL_WAIT_MS,
        query_timeout: QUERY_MS,
        // A lock (the write lock below, or a row's) held past the wait fails with 55P03: a 503 that says so.
        lock_timeout: BUSY_WAIT_MS,
        types,
        application_name: 'cev',
        // No JIT compilation: it pays off for long analytic queries, not for statements of a
        // fraction of a millisecond, and it starts once a plan's estimated cost passes a bound (a
        // list of a large store, or a plan made for unknown LIMIT and OFFSET): measured 10-20 ms
        // per execution of a page of artifacts at 100k.
        options: '-c jit=off',
      });
      // An idle connection the server dropped (restart, failover) reports here; the pool replaces it
      // on the next request, which is the recovery we want, so the event must not end the process.
      pool.on('error', () => undefined);
      return pool;
    };
    this.pool = poolOf(connections);
    this.committers = poolOf(COMMITTERS);
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
      const page = this.pageOf(sql, params);
      const statement = this.prepared(page.sql);
      try {
        return await (client ?? this.pool).query<T>({ ...statement, values: page.params as unknown[] });
      } catch (error) {
        if (statement.name === undefined || !isStalePlan(error)) throw error;
        // A migration (another instance's, starting) changed a table under the plan: the statement
        // goes unnamed from now on, and is asked again unless its transaction is already aborted.
        this.statementNames.set(page.sql, { text: statement.text });
        if (client !== undefined) throw error;
        return await this.pool.query<T>(statement.text, page.params as unknown[]);
      }
    };
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
        if (this.inTransaction.getStore() !== undefined || this.executeNameOf(sql) === undefined)
          return (await query<T>(sql, params)).rows;
        return (await new Promise<Row[]>((resolve, reject) => {
          this.batchedReads.push({ sql, params, resolve, reject });
          if (this.batchedReads.length === 1) setImmediate(() => void this.sendBatchedReads(query));
        })) as T[];
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
   * Group commit, as on SQLite (store/db.ts): the transactions queued in one turn of the event loop
   * run in one database transaction under one write lock, each inside its own savepoint, so a
   * failing one rolls back alone and the group shares one commit and one log flush. Writes take
   * turns across instances (WRITE_LOCK) either way; without groups each waited for the one before
   * it to flush the log, which held one instance to a few dozen writes a second.
   */
  transaction<T>(work: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (this.inTransaction.getStore() !== undefined) return work();
    if (options.concurrent === true) return this.concurrent(work, options.lockOrder ?? '');
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ work, resolve: resolve as (result: unknown) => void, reject });
      this.draining ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queued.length > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        await this.commitGroup(this.queued.splice(0, GROUP_LIMIT));
      }
    } finally {
      this.draining = undefined;
    }
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
    await new Promise<void>((resolve, reject) => {
      this.queuedWrites.push({ statements: writes, lockOrder, resolve, reject });
      this.applying ??= this.applyWrites();
    });
    return result;
  }

  /** Commits the queued writes, those queued meanwhile in the next commit, until none is left. */
  private async applyWrites(): Promise<void> {
    try {
      while (this.queuedWrites.length > 0) {
        // One turn of the event loop, so that the transactions finishing in it join the commit.
        await new Promise((resolve) => setImmediate(resolve));
        await this.commitWrites(this.queuedWrites.splice(0, GROUP_LIMIT));
      }
    } finally {
      this.applying = undefined;
    }
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
      const statements = await this.executable(client, writes);
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

  /**
   * A statement in PostgreSQL's words, named: each connection parses and plans it once, then binds
   * it (measured: planning was most of a list query's time in the database). Only the first
   * PREPARED_LIMIT distinct statements are named, since statements with lists of keys come in many
   * lengths and each connection keeps every named one; the rest go unnamed, planned each time.
   */
  /**
   * The statement with the first pages' LIMIT and OFFSET written in (dialect.ts withPageWrittenIn),
   * while at most PAGE_STATEMENTS such statements have been seen; else as it is.
   */
  private pageOf(sql: string, params: Param[]): { sql: string; params: Param[] } {
    const page = withPageWrittenIn(sql, params);
    if (page === undefined) return { sql, params };
    if (this.statementNames.has(page.sql)) return page;
    if (this.pageStatements >= PAGE_STATEMENTS) return { sql, params };
    this.pageStatements += 1;
    return page;
  }

  private prepared(sql: string): { text: string; name?: string } {
    const known = this.statementNames.get(sql);
    if (known !== undefined) return known;
    const text = postgresStatement(sql);
    if (this.statementNames.size >= PREPARED_LIMIT) return { text };
    const named = { text, name: `cev${this.statementNames.size}` };
    this.statementNames.set(sql, named);
    return named;
  }

  /**
   * The writes as statements that can travel together: each an EXECUTE of its statement, prepared
   * on this connection once (PREPARE on its own, before the transaction, so it stays prepared
   * whatever the transaction does). Written out whole, each was planned on every commit
   * (measured: 0.03 ms of the database's 0.23 ms per attestation, most for the update of a trail's activity).
   */
  private async executable(client: pg.PoolClient, writes: readonly Write[]): Promise<string[]> {
    const prepared = this.preparedOn.get(client) ?? new Set<string>();
    this.preparedOn.set(client, prepared);
    const statements: string[] = [];
    for (const write of writes) {
      const name = this.executeNameOf(write.sql);
      if (name !== undefined && !prepared.has(name)) {
        await client.query(`PREPARE ${name} AS ${postgresStatement(write.sql)}`);
        prepared.add(name);
      }
      statements.push(
        name === undefined ? postgresStatementWith(write.sql, write.literals) : postgresExecute(name, write.literals),
      );
    }
    return statements;
  }

  /**
   * Sends the batched reads of a turn of the event loop in one message: EXECUTE of each, its
   * statement prepared once per connection. If the message fails, each read is made on its own,
   * so only one at fault fails.
   */
  private async sendBatchedReads(query: (sql: string, params: Param[]) => Promise<pg.QueryResult<Row>>): Promise<void> {
    const reads = this.batchedReads.splice(0);
    const alone = (read: BatchedRead): void => {
      query(read.sql, read.params).then((result) => read.resolve(result.rows), read.reject);
    };
    if (reads.length === 1) return alone(reads[0]);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      for (const read of reads) read.reject(error);
      return;
    }
    let results: Array<pg.QueryResult<Row>>;
    let broken: unknown;
    const prepared = this.preparedOn.get(client) ?? new Set<string>();
    this.preparedOn.set(client, prepared);
    const names = reads.map((read) => this.executeNameOf(read.sql)!);
    try {
      const statements: string[] = [];
      for (const [i, read] of reads.entries()) {
        const name = names[i];
        if (!prepared.has(name)) {
          // On its own, outside any transaction, so that it stays prepared whatever the batch does.
          await client.query(`PREPARE ${name} AS ${postgresStatement(read.sql)}`);
          prepared.add(name);
        }
        statements.push(postgresExecute(name, postgresLiterals(read.params)));
      }
      results = (await client.query(statements.join(';\n'))) as unknown as Array<pg.QueryResult<Row>>;
    } catch (error) {
      // A statement may have gone stale (a migration changed its table): prepared again next time.
      for (const name of new Set(names)) {
        if (!prepared.delete(name)) continue;
        await client.query(`DEALLOCATE ${name}`).catch((deallocateError: unknown) => {
          broken = deallocateError;
        });
      }
      if (isDatabaseUnavailable(error)) broken = error;
      for (const read of reads) alone(read);
      return;
    } finally {
      // A connection that failed is dropped rather than handed to the next request.
      client.release(broken instanceof Error ? broken : undefined);
    }
    for (const [i, read] of reads.entries()) read.resolve(results[i].rows);
  }

  /** The name a batched read's or a concurrent write's statement is prepared under on every connection; undefined past PREPARED_LIMIT statements (not prepared). */
  private executeNameOf(sql: string): string | undefined {
    let name = this.executeNames.get(sql);
    if (name === undefined && this.executeNames.size < PREPARED_LIMIT) {
      name = `cevx${this.executeNames.size}`;
      this.executeNames.set(sql, name);
    }
    return name;
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
    await this.draining;
    await this.applying;
    await this.committers.end();
    await this.pool.end();
  }
}

/** PostgreSQL's refusal to run a named statement whose tables changed shape since it was planned. */
function isStalePlan(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '0A000' && /cached plan/.test(error.message);
}
