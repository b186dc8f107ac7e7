// The statements PostgreSQL plans once per connection instead of on every execution: the names of
// the store's statements (bound with parameters), of the batched reads' and concurrent writes'
// (PREPAREd, then EXECUTEd inside a message of several), and which of them each connection has.
import type pg from 'pg';
import type { Param } from '../db.ts';
import { postgresExecute, postgresStatement, postgresStatementWith, withPageWrittenIn } from './dialect.ts';

/** Distinct statements named (prepared once per connection) at most. */
const PREPARED_LIMIT = 500;

/** Of those, statements with a page written in at most: a client walking every page does not use up the names. */
const PAGE_STATEMENTS = 200;

/** A write of a concurrent transaction: its statement, and its values as literals to send with it. */
export interface Write {
  sql: string;
  literals: string[];
}

/** A statement in PostgreSQL's words, and the name it is prepared under (none past PREPARED_LIMIT). */
export interface NamedStatement {
  text: string;
  name?: string;
}

/** PostgreSQL's refusal to run a named statement whose tables changed shape since it was planned. */
export function isStalePlan(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '0A000' && /cached plan/.test(error.message);
}

export class NamedStatements {
  private readonly statementNames = new Map<string, NamedStatement>();
  private pageStatements = 0;
  /** The statements each connection has prepared (PREPARE) for batched reads and concurrent writes, by name. */
  private readonly preparedOn = new WeakMap<pg.PoolClient, Set<string>>();
  private readonly executeNames = new Map<string, string>();

  /**
   * The statement with the first pages' LIMIT and OFFSET written in (dialect.ts withPageWrittenIn),
   * while at most PAGE_STATEMENTS such statements have been seen; else as it is.
   */
  pageOf(sql: string, params: Param[]): { sql: string; params: Param[] } {
    const page = withPageWrittenIn(sql, params);
    if (page === undefined) return { sql, params };
    if (this.statementNames.has(page.sql)) return page;
    if (this.pageStatements >= PAGE_STATEMENTS) return { sql, params };
    this.pageStatements += 1;
    return page;
  }

  /**
   * A statement in PostgreSQL's words, named: each connection parses and plans it once, then binds
   * it (measured: planning was most of a list query's time in the database). Only the first
   * PREPARED_LIMIT distinct statements are named, since statements with lists of keys come in many
   * lengths and each connection keeps every named one; the rest go unnamed, planned each time.
   */
  prepared(sql: string): NamedStatement {
    const known = this.statementNames.get(sql);
    if (known !== undefined) return known;
    const text = postgresStatement(sql);
    if (this.statementNames.size >= PREPARED_LIMIT) return { text };
    const named = { text, name: `cev${this.statementNames.size}` };
    this.statementNames.set(sql, named);
    return named;
  }

  /** Goes unnamed from now on: a migration changed a table under its plan (isStalePlan). */
  unname(sql: string, statement: NamedStatement): void {
    this.statementNames.set(sql, { text: statement.text });
  }

  /** The name a batched read's or a concurrent write's statement is prepared under on every connection; undefined past PREPARED_LIMIT statements (not prepared). */
  executeNameOf(sql: string): string | undefined {
    let name = this.executeNames.get(sql);
    if (name === undefined && this.executeNames.size < PREPARED_LIMIT) {
      name = `cevx${this.executeNames.size}`;
      this.executeNames.set(sql, name);
    }
    return name;
  }

  /** The names `client` has prepared: the caller adds what it prepares and deletes what it deallocates. */
  preparedOnConnection(client: pg.PoolClient): Set<string> {
    const prepared = this.preparedOn.get(client) ?? new Set<string>();
    this.preparedOn.set(client, prepared);
    return prepared;
  }

  /**
   * The writes as statements that can travel together: each an EXECUTE of its statement, prepared
   * on this connection once (PREPARE on its own, before the transaction, so it stays prepared
   * whatever the transaction does). Written out whole, each was planned on every commit
   * (measured: 0.03 ms of the database's 0.23 ms per attestation, most for the update of a trail's activity).
   */
  async executable(client: pg.PoolClient, writes: readonly Write[]): Promise<string[]> {
    const prepared = this.preparedOnConnection(client);
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
}
