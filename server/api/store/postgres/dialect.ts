// The store's SQL is written once, in the form SQLite reads; these functions give PostgreSQL's
// form of it. Statements: `?` parameters become `$n`, and `LIMIT -1` (SQLite's "no limit") becomes
// `LIMIT NULL`. Migrations: SQLite's column types and trigger bodies become their PostgreSQL
// equivalents. The SQLite functions the store calls exist in PostgreSQL through compat.ts.
import pg from 'pg';
import type { Param } from '../db.ts';

/** `sql` with each `?` parameter (outside quoted text) replaced by `placeholder(n)`, n counting from 1. */
function withPlaceholders(sql: string, placeholder: (n: number) => string): string {
  let out = '';
  let n = 0;
  for (let i = 0; i < sql.length; i += 1) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') {
      n += 1;
      out += placeholder(n);
    } else {
      out += c;
    }
  }
  return out;
}

/** `sql` with `$1, $2, ...` for its `?` parameters (outside quoted text). */
export function postgresStatement(sql: string): string {
  return withPlaceholders(sql, (n) => `$${n}`).replace(/\bLIMIT (\$\d+)/g, 'LIMIT NULLIF($1::bigint, -1)');
}

/** The largest LIMIT and OFFSET withPageWrittenIn writes in: the first pages of any list. */
const WRITTEN_LIMIT = 100;
const WRITTEN_OFFSET = 500;

/**
 * `sql` with the numbers of its closing `LIMIT ? OFFSET ?` (or `LIMIT ?`) written in, and `params`
 * without them; undefined without such a clause, or past the first pages. A named statement is
 * planned once for any parameters only when that plan costs no more than one made for the given
 * ones, which a plan for an unknown LIMIT and OFFSET never does (PostgreSQL assumes a tenth of
 * the rows): each execution of a page was planned anew, up to half of the database's CPU for a
 * page of artifacts at 100k. With the numbers written in, the first pages are planned once.
 */
export function withPageWrittenIn(sql: string, params: readonly Param[]): { sql: string; params: Param[] } | undefined {
  const clause = /\bLIMIT \?(?: OFFSET \?)?\s*$/.exec(sql);
  if (clause === null) return undefined;
  const count = clause[0].includes('OFFSET') ? 2 : 1;
  if (params.length < count) return undefined;
  const [limit, offset = 0] = params.slice(params.length - count);
  if (typeof limit !== 'number' || typeof offset !== 'number') return undefined;
  if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(offset)) return undefined;
  if (limit < -1 || limit > WRITTEN_LIMIT || offset < 0 || offset > WRITTEN_OFFSET) return undefined;
  return {
    sql: `${sql.slice(0, clause.index)}LIMIT ${limit === -1 ? 'ALL' : String(limit)} OFFSET ${String(offset)}`,
    params: params.slice(0, params.length - count),
  };
}

/** PostgreSQL's refusal of a NUL character in text, raised before the text is sent. */
function unstorableText(): Error {
  return Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
}

/**
 * `param` as a quoted literal of unknown type, which PostgreSQL types from where it stands as it
 * types a parameter (the driver sends every parameter as text of unknown type, binary data aside).
 */
function literalOf(param: Param): string {
  if (param === null) return 'NULL';
  // Binary data in bytea's hex form, as the driver would send it.
  if (ArrayBuffer.isView(param))
    return pg.escapeLiteral(`\\x${Buffer.from(param.buffer, param.byteOffset, param.byteLength).toString('hex')}`);
  const text = String(param);
  if (text.includes('\0')) throw unstorableText();
  return pg.escapeLiteral(text);
}

/**
 * `sql` with its parameters written in as literals: a statement that can travel with others in one
 * message (several statements in one round trip take no parameters). Only for writes, which have
 * no LIMIT to translate.
 */
export function postgresLiteralStatement(sql: string, params: readonly Param[]): string {
  return withPlaceholders(sql, (n) => {
    if (n > params.length) throw new Error(`statement has more parameters than the ${params.length} given: ${sql}`);
    return literalOf(params[n - 1]);
  });
}

/** A SQLite trigger (`CREATE TRIGGER t AFTER ... ON table [WHEN c] BEGIN ...; END;`) as a PostgreSQL function and trigger. */
function postgresTrigger(
  _whole: string,
  name: string,
  event: string,
  table: string,
  when: string | undefined,
  body: string,
): string {
  const condition = when === undefined ? '' : ` WHEN (${when.trim()})`;
  return (
    `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN ${body.trim()} RETURN NULL; END $body$;\n` +
    `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW${condition} EXECUTE FUNCTION ${name}();`
  );
}

/** Every SQLite table without an integer key has an implicit `rowid` in insertion order; the store orders by it. */
function withRowid(table: string): string {
  return /\bINTEGER PRIMARY KEY\b/.test(table)
    ? table
    : table.replace(/\(/, '(\n      rowid BIGINT GENERATED ALWAYS AS IDENTITY,');
}

/** A migration written for SQLite, in PostgreSQL's words. */
export function postgresMigration(sql: string): string {
  return (
    sql
      .replace(/CREATE TABLE \w+ \([\s\S]*?\n\s*\);/g, withRowid)
      .replace(
        /CREATE TRIGGER (\w+) AFTER (INSERT|UPDATE(?: OF [\w, ]+?)?) ON (\w+)(?: WHEN ([\s\S]+?))?\s+BEGIN\s([\s\S]+?)\sEND;/g,
        postgresTrigger,
      )
      // A column SQLite lets be named user, a reserved word in PostgreSQL.
      .replace(/^(\s+)user TEXT/gm, '$1"user" TEXT')
      .replace(/\bINTEGER PRIMARY KEY(?: AUTOINCREMENT)?/g, 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY')
      .replace(/\bINTEGER\b/g, 'BIGINT')
      .replace(/\bREAL\b/g, 'DOUBLE PRECISION')
  );
}
