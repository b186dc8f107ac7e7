// The PostgreSQL connections every store module shares: a pool, the statements of the current
// request (its transaction's connection, found through async context, or any pooled connection
// outside one), and the one-transaction-per-request helper.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { BUSY_WAIT_MS } from '../../faults.ts';
import type { Param, Row, Statements } from '../db.ts';
import { postgresStatement } from './dialect.ts';

/** Bounds, so that no request waits on the database without end. */
const POOL_WAIT_MS = 5_000;
const QUERY_MS = 30_000;

/**
 * Write transactions run one at a time across every instance on the database (a transaction-scoped
 * advisory lock), as they do on SQLite: the services check-then-write (next action number, next
 * snapshot index, current policy version) in their transactions, which READ COMMITTED alone would
 * let two instances interleave. Reads take no lock.
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

/** How many queued transactions one commit takes at most. */
const GROUP_LIMIT = 256;

export class PostgresDatabase {
  readonly pool: pg.Pool;
  private readonly inTransaction = new AsyncLocalStorage<pg.PoolClient>();
  private readonly queued: Job[] = [];
  private draining: Promise<void> | undefined;
  readonly statements: Statements;

  constructor(url: string, connections: number) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: connections,
      connectionTimeoutMillis: POOL_WAIT_MS,
      query_timeout: QUERY_MS,
      // A lock (the write lock below, or a row's) held past the wait fails with 55P03: a 503 that says so.
      lock_timeout: BUSY_WAIT_MS,
      types,
      application_name: 'cev',
    });
    // An idle connection the server dropped (restart, failover) reports here; the pool replaces it
    // on the next request, which is the recovery we want, so the event must not end the process.
    this.pool.on('error', () => undefined);
    const query = async <T extends Row>(sql: string, params: Param[]): Promise<pg.QueryResult<T>> =>
      (this.inTransaction.getStore() ?? this.pool).query<T>(postgresStatement(sql), params as unknown[]);
    this.statements = {
      run: async (sql, ...params) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
      get: async <T extends Row>(sql: string, ...params: Param[]) => (await query<T>(sql, params)).rows[0],
      all: async <T extends Row>(sql: string, ...params: Param[]) => (await query<T>(sql, params)).rows,
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
  transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction.getStore() !== undefined) return work();
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
      client = await this.pool.connect();
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
          const result = await this.inTransaction.run(client, job.work);
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
    await this.pool.end();
  }
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOENT',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection error|Client was closed|not queryable/i;

/** An error that says the database cannot be reached now (down, restarting, out of connections), not that the request was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return UNAVAILABLE_MESSAGES.test(error.message);
}

/** PostgreSQL's refusal of a NUL character in text (SQLSTATE 22021), which no stored name or value can contain: the request's fault. */
export function isUnstorableText(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '22021';
}
