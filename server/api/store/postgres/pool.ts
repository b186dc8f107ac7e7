// The pools of PostgreSQL connections the store opens: bounded waits, the session settings every
// connection gets, and values read back as SQLite gives them.
import pg from 'pg';
import { BUSY_WAIT_MS } from '../../faults.ts';

/** Bounds, so that no request waits on the database without end. */
const POOL_WAIT_MS = 5_000;
const QUERY_MS = 30_000;

/** Integers and JSON come back as SQLite gives them: numbers, and JSON text unparsed. */
const types: pg.CustomTypesConfig = {
  getTypeParser(oid, format): unknown {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (text: string) => Number(text);
    if (oid === pg.types.builtins.JSON || oid === pg.types.builtins.JSONB) return (text: string) => text;
    return pg.types.getTypeParser(oid, format);
  },
};

/** A pool of at most `max` connections to the database at `url`. */
export function poolOf(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: POOL_WAIT_MS,
    query_timeout: QUERY_MS,
    // A lock (the write lock, or a row's) held past the wait fails with 55P03: a 503 that says so.
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
}
