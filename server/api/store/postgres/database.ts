// The PostgreSQL connections every store module shares: a pool, the statements of the current
// request (its transaction's connection, found through async context, or any pooled connection
// outside one), and the one-transaction-per-request helper.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
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
const WRITE_LOCK = 0x63657601;

/** Integers and JSON come back as SQLite gives them: numbers, and JSON text unparsed. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (text: string) => Number(text);
    if (oid === pg.types.builtins.JSON || oid === pg.types.builtins.JSONB) return (text: string) => text;
    return pg.types.getTypeParser(oid, format);
  },
};

export class PostgresDatabase {
  readonly pool: pg.Pool;
  private readonly inTransaction = new AsyncLocalStorage<pg.PoolClient>();
  readonly statements: Statements;

  constructor(url: string, connections: number) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: connections,
      connectionTimeoutMillis: POOL_WAIT_MS,
      query_timeout: QUERY_MS,
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

  /** Runs `work` in one transaction, answered once committed (and so durable); a transaction started inside joins it. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction.getStore() !== undefined) return work();
    const client = await this.pool.connect();
    let broken: unknown;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK]);
      const result = await this.inTransaction.run(client, work);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError;
      }
      throw error;
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

  close(): Promise<void> {
    return this.pool.end();
  }
}

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ENOENT', '57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection error|Client was closed|not queryable/i;

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
