// What every store module runs its statements on, whatever the engine (SQLite in sqlite/, PostgreSQL
// in postgres/): the Statements of the current request, what a transaction may ask of its engine,
// and the helpers the modules share to read rows (JSON columns, batched lookups by key, rows that
// cannot be decoded).
import type { SQLInputValue } from 'node:sqlite';

export type Param = SQLInputValue;
export type Row = Record<string, unknown>;

/**
 * What store modules run their statements on: the connection of the current request. Written in
 * the SQL both engines read (`?` parameters; store/postgres/ translates the rest), and answered
 * asynchronously so that a network database fits behind it.
 */
export interface Statements {
  run(sql: string, ...params: Param[]): Promise<{ changes: number }>;
  /**
   * A write whose count nobody reads and whose failure fails its whole transaction: in a
   * concurrent transaction on PostgreSQL it is applied at commit (TransactionOptions), elsewhere
   * now, as run() would.
   */
  write(sql: string, ...params: Param[]): Promise<void>;
  get<T extends Row = Row>(sql: string, ...params: Param[]): Promise<T | undefined>;
  all<T extends Row = Row>(sql: string, ...params: Param[]): Promise<T[]>;
  /**
   * all() of each read, in order: on PostgreSQL in one round trip (one message, values written
   * in, so each is planned anew; no LIMIT parameter), elsewhere one after another.
   */
  allEach(reads: ReadonlyArray<readonly [sql: string, ...params: Param[]]>): Promise<Row[][]>;
  /**
   * all() of a read outside a transaction that may go with the other such reads of the same turn
   * of the event loop: on PostgreSQL one round trip for them all (each a named statement), where
   * each read of its own was a round trip and a socket write of the server's. Elsewhere all().
   */
  allBatched<T extends Row = Row>(sql: string, ...params: Param[]): Promise<T[]>;
}

/** What each commit of PostgreSQL's concurrent transactions derives from their writes before COMMIT (trail states kept on write). */
export interface BeforeCommit {
  /** A statement sent at the end of the commit's first message, after the writes: its rows go to run(). */
  read: string;
  /**
   * Runs on the commit's connection with read's rows: its reads go at once, its writes (write())
   * in one message with COMMIT.
   */
  run: (statements: Statements, rows: Row[]) => Promise<void>;
}

export interface TransactionOptions {
  /**
   * The transaction's checks hold however other concurrent transactions interleave with it (it
   * checks only what no write undoes and writes only what no other write checks), it reads before
   * it writes, and it writes with write(). On PostgreSQL it then runs alongside others, its writes
   * applied together at commit, instead of taking its turn under the write lock; SQLite runs it
   * as any other.
   */
  concurrent?: boolean;
  /** Concurrent transactions commit together in this key's order: so instances lock shared rows in one order. */
  lockOrder?: string;
}

export function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** Keys read per statement by the batched lookups: far below either engine's limit on parameters. */
const BATCH_KEYS = 500;

/**
 * The condition that the flow of row `alias` (`a` an artifact or attestation, `t` a trail) is not
 * archived (a missing flow counts as live, as the lists always had it). Asked through migration
 * 209's index of archived flows, so PostgreSQL can tell that nearly every row passes and reads a
 * page in index order, and SQLite's filter of the flows it builds for a join (a Bloom filter) is
 * over the archived ones, not every flow of the org, at each page.
 */
export function inLiveFlow(alias: 'a' | 't'): string {
  return `NOT EXISTS (SELECT 1 FROM flows WHERE id = ${alias}.flow_id AND archived_at IS NOT NULL)`;
}

/** Adds the bounds of a time window on `column` (inclusive, each where given) to a statement's conditions. */
export function withinWindow(
  conditions: string[],
  params: Param[],
  column: string,
  window: { from?: number; to?: number },
): void {
  if (window.from !== undefined) {
    conditions.push(`${column} >= ?`);
    params.push(window.from);
  }
  if (window.to !== undefined) {
    conditions.push(`${column} <= ?`);
    params.push(window.to);
  }
}

/** `?, ?, ?` for `count` parameters. */
export function placeholderList(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/**
 * Rows of several keys read in a few statements instead of one per key (a page of a list reads its
 * rows' related rows at once), grouped by key in the order read. A row that cannot be decoded
 * makes its key's entry the error, so one damaged row fails only the list item that needs it.
 */
export async function rowsByKey<R extends Row, T>(
  keys: readonly string[],
  read: (keys: string[]) => Promise<R[]>,
  keyOf: (row: R) => string,
  decode: (row: R) => T,
): Promise<Map<string, T[] | Error>> {
  const grouped = new Map<string, T[] | Error>();
  const distinctKeys = [...new Set(keys)];
  for (const key of distinctKeys) grouped.set(key, []);
  for (let start = 0; start < distinctKeys.length; start += BATCH_KEYS) {
    for (const row of await read(distinctKeys.slice(start, start + BATCH_KEYS))) {
      const key = keyOf(row);
      const list = grouped.get(key);
      if (list === undefined || list instanceof Error) continue;
      try {
        list.push(decode(row));
      } catch (error) {
        grouped.set(key, error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
  return grouped;
}

export function parseJson<T = unknown>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return fallback;
  return JSON.parse(text) as T;
}

/** A listed row that could not be decoded (corrupt stored JSON); lists show a placeholder for it. */
export interface Unreadable {
  unreadable: true;
  id: string;
  reason: string;
}

export function isUnreadable(item: unknown): item is Unreadable {
  return typeof item === 'object' && item !== null && (item as Partial<Unreadable>).unreadable === true;
}

/** Decodes each row on its own, so one bad row does not take the whole list down. */
export function decodeEach<R extends { id?: string | number | bigint | null }, T>(
  rows: readonly R[],
  decode: (row: R) => T,
): Array<T | Unreadable> {
  return rows.map((row) => {
    try {
      return decode(row);
    } catch (error) {
      return {
        unreadable: true,
        id: String(row.id ?? ''),
        reason: error instanceof Error ? error.message : String(error),
      };
    }
  });
}

/**
 * decodeEach for a decoder that reads more rows: one row after another, since inside a transaction
 * on PostgreSQL the reads share one connection, which runs one query at a time.
 */
export async function decodeEachAsync<R extends { id?: string | number | bigint | null }, T>(
  rows: readonly R[],
  decode: (row: R) => Promise<T>,
): Promise<Array<T | Unreadable>> {
  const decoded: Array<T | Unreadable> = [];
  for (const row of rows) {
    try {
      decoded.push(await decode(row));
    } catch (error) {
      decoded.push({
        unreadable: true,
        id: String(row.id ?? ''),
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return decoded;
}
