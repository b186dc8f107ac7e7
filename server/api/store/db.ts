// The SQLite connection every store module shares: pragmas for durability, a statement cache,
// and the one-transaction-per-request helper.
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';

export type Param = SQLInputValue;
export type Row = Record<string, unknown>;

export class Sql {
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private depth = 0;

  /** `file` undefined opens an in-memory database. */
  constructor(file: string | undefined) {
    this.db = new DatabaseSync(file ?? ':memory:');
    if (file !== undefined) this.db.exec('PRAGMA journal_mode = WAL');
    // FULL: a commit is on disk before the response that acknowledges it leaves.
    this.db.exec('PRAGMA synchronous = FULL');
    this.db.exec('PRAGMA foreign_keys = ON');
    this.db.exec('PRAGMA busy_timeout = 5000');
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  run(sql: string, ...params: Param[]): { changes: number; lastInsertRowid: number } {
    const result = this.statement(sql).run(...params);
    return { changes: Number(result.changes), lastInsertRowid: Number(result.lastInsertRowid) };
  }

  get<T extends Row = Row>(sql: string, ...params: Param[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  all<T extends Row = Row>(sql: string, ...params: Param[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  /**
   * Runs `work` in one transaction (nested calls join the outer one). `work` is synchronous on
   * purpose: node:sqlite is synchronous, so no other request interleaves with it, and any async
   * preparation (evidence files) must finish before it starts.
   */
  transaction<T>(work: () => T): T {
    if (this.depth > 0) return work();
    this.db.exec('BEGIN IMMEDIATE');
    this.depth = 1;
    try {
      const result = work();
      if (result instanceof Promise) throw new Error('a store transaction must be synchronous');
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      this.depth = 0;
    }
  }

  close(): void {
    this.statements.clear();
    if (this.db.isOpen) this.db.close();
  }
}

/** A SQLite unique or primary-key violation: a concurrent duplicate create (409, retryable). */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const errcode = (error as { errcode?: unknown }).errcode;
  return errcode === 2067 || errcode === 1555 || /UNIQUE constraint failed/.test(error.message);
}

export function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
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
export function decodeEach<R extends { id?: unknown }, T>(rows: readonly R[], decode: (row: R) => T): Array<T | Unreadable> {
  return rows.map((row) => {
    try {
      return decode(row);
    } catch (error) {
      return { unreadable: true, id: String(row.id ?? ''), reason: error instanceof Error ? error.message : String(error) };
    }
  });
}
