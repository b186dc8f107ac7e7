// The store's SQL is written once, in the form SQLite reads; these functions give PostgreSQL's
// form of it. Statements: `?` parameters become `$n`, and `LIMIT -1` (SQLite's "no limit") becomes
// `LIMIT NULL`. Migrations: SQLite's column types and trigger bodies become their PostgreSQL
// equivalents. The SQLite functions the store calls exist in PostgreSQL through compat.ts.
import type { Param } from '../db.ts';

/** Distinct statements whose pieces are kept: statements with lists of keys come in many lengths. */
const PIECES_KEPT = 1_000;
const piecesKept = new Map<string, readonly string[]>();

/** `sql` cut at each `?` parameter outside quoted text: one piece more than it has parameters. */
function piecesOf(sql: string): readonly string[] {
  const known = piecesKept.get(sql);
  if (known !== undefined) return known;
  const pieces: string[] = [];
  let start = 0;
  for (let i = 0; i < sql.length; i += 1) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      i = end === -1 ? sql.length : end;
    } else if (c === '?') {
      pieces.push(sql.slice(start, i));
      start = i + 1;
    }
  }
  pieces.push(sql.slice(start));
  if (piecesKept.size >= PIECES_KEPT) piecesKept.clear();
  piecesKept.set(sql, pieces);
  return pieces;
}

/**
 * `sql` with each `?` parameter (outside quoted text) replaced by `placeholder(n)`, n counting
 * from 1. Joined from the statement's pieces, cut once: every write of a concurrent transaction
 * comes through here, and building it a character at a time left a string per character to collect.
 */
function withPlaceholders(sql: string, placeholder: (n: number) => string): string {
  const pieces = piecesOf(sql);
  const out: string[] = [pieces[0]];
  for (let n = 1; n < pieces.length; n += 1) out.push(placeholder(n), pieces[n]);
  return out.join('');
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

/** EXECUTE of the statement prepared as `name` (PREPARE) with `literals` (postgresLiterals): a statement that can travel with others. */
export function postgresExecute(name: string, literals: readonly string[]): string {
  return literals.length === 0 ? `EXECUTE ${name}` : `EXECUTE ${name}(${literals.join(', ')})`;
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
    return quoted(`\\x${Buffer.from(param.buffer, param.byteOffset, param.byteLength).toString('hex')}`);
  const text = String(param);
  if (text.includes('\0')) throw unstorableText();
  return quoted(text);
}

/**
 * `text` quoted as the driver's escapeLiteral quotes it (quotes doubled; with a backslash, E'' and
 * backslashes doubled), by whole-string replacement: it appends a character at a time, which for
 * an attestation's body left thousands of strings to collect per write.
 */
function quoted(text: string): string {
  const body = text.replaceAll("'", "''");
  return text.includes('\\') ? ` E'${body.replaceAll('\\', '\\\\')}'` : `'${body}'`;
}

/**
 * `sql` with its parameters written in as literals: a statement that can travel with others in one
 * message (several statements in one round trip take no parameters). Only for writes, which have
 * no LIMIT to translate.
 */
export function postgresLiteralStatement(sql: string, params: readonly Param[]): string {
  return postgresStatementWith(sql, postgresLiterals(params));
}

/** Each parameter as a literal of unknown type; a NUL character is refused here, before anything is sent. */
export function postgresLiterals(params: readonly Param[]): string[] {
  return params.map(literalOf);
}

/** `sql` with `literals` (postgresLiterals) written in for its parameters. */
export function postgresStatementWith(sql: string, literals: readonly string[]): string {
  return withPlaceholders(sql, (n) => {
    if (n > literals.length) throw new Error(`statement has more parameters than the ${literals.length} given: ${sql}`);
    return literals[n - 1];
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
