// Pages read by position (issue 27). Each row of a long list is numbered in the list's order, 1 for
// the oldest, within each partition the list is read by (a flow's trails, an org's trails, an
// org's artifacts of one repo...), so page N of a newest-first list is a seek on (partition,
// number) instead of an OFFSET that walks N × per_page index entries.
//
// Numbers stay dense. A row arriving in order (the usual case: the lists are newest first, by the
// time a row arrived) takes the next number. One arriving out of order (a clock stepped back,
// another instance's clock behind) takes its place and the rows after it move up one, a walk over
// those rows only. A row that leaves a partition (an artifact whose repo changed) moves the rows
// after it down one. Rows that leave an org-level list because their flow was archived keep their
// numbers and are recorded in list_gaps, each with how many listed rows come before it, so a
// listed rank becomes a number with one more seek (migration 240).
import type { Param, Statements } from './db.ts';

/** One partition of a numbered list: the rows of `table` that `where` selects, numbered in `column`. */
export interface NumberedPartition {
  table: string;
  column: string;
  where: string;
  params: readonly Param[];
  /** The time the list is ordered by, then `tie`, the order rows arrived in (rowid, seq or id). */
  time: string;
  tie: string;
  /** Where the partition's gaps are kept, for a list whose rows leave it when their flow is archived. */
  gaps?: GapPartition;
}

/** A partition's key in list_gaps: the list, the org, and the part of the org's list ('' for the whole). */
export interface GapPartition {
  list: 'trails' | 'artifacts' | 'artifacts-repo';
  orgId: number;
  part: string;
}

const GAPS_OF = 'list = ? AND org_id = ? AND part = ?';

function gapParams(gaps: GapPartition): Param[] {
  return [gaps.list, gaps.orgId, gaps.part];
}

/**
 * The numbers a row at `time` takes in each partition, after making room where it does not go
 * last. Run in the write transaction that writes the row, which must hold the write lock: the
 * numbers are read, then written. One read for every partition, plus a write for each where the
 * row does not go last. `tie` is the row's own tie-break value when it is stored already (it moves
 * into the partition); a new row has the greatest, so it goes after every row of its time.
 */
export async function numbersFor(
  sql: Statements,
  partitions: readonly NumberedPartition[],
  time: number,
  tie?: number,
): Promise<number[]> {
  // The greatest number of a row before this one (a walk back from the newest row over the rows
  // that go after this one only: the unary + keeps the planner on the numbered index), and the greatest.
  const before = (p: NumberedPartition): string =>
    tie === undefined ? `+${p.time} <= ?` : `(+${p.time} < ? OR (+${p.time} = ? AND +${p.tie} < ?))`;
  const columns = partitions.map(
    (p, i) =>
      `(SELECT ${p.column} FROM ${p.table} WHERE ${p.where} AND ${before(p)} ORDER BY ${p.column} DESC LIMIT 1) AS before${i},
       (SELECT max(${p.column}) FROM ${p.table} WHERE ${p.where}) AS top${i}`,
  );
  const at = tie === undefined ? [time] : [time, time, tie];
  const row = (await sql.get<Record<string, number | null>>(
    `SELECT ${columns.join(', ')}`,
    ...partitions.flatMap((p) => [...p.params, ...at, ...p.params]),
  ))!;
  const numbers: number[] = [];
  for (const [i, partition] of partitions.entries()) {
    const before = Number(row[`before${i}`] ?? 0);
    if (before < Number(row[`top${i}`] ?? 0)) await moved(sql, partition, before, +1);
    numbers.push(before + 1);
  }
  return numbers;
}

/** Closes the place of a row that left the partition at `number`: the rows after it move down one. */
export async function numberVacated(sql: Statements, partition: NumberedPartition, number: number): Promise<void> {
  await moved(sql, partition, number, -1);
}

/** Moves the numbers after `after` by `by`, the partition's gaps with them (a listed row came or went before them). */
async function moved(sql: Statements, partition: NumberedPartition, after: number, by: 1 | -1): Promise<void> {
  const { table, column, where, params, gaps } = partition;
  await sql.run(`UPDATE ${table} SET ${column} = ${column} + ? WHERE ${where} AND ${column} > ?`, by, ...params, after);
  if (gaps !== undefined)
    await sql.run(
      `UPDATE list_gaps SET pos = pos + ?, listed_before = listed_before + ? WHERE ${GAPS_OF} AND pos > ?`,
      by,
      by,
      ...gapParams(gaps),
      after,
    );
}

/**
 * The greatest number a newest-first page may show when it starts `offset` listed rows after the
 * newest: an expression for a statement's WHERE (`column <= expression`), with its parameters, so
 * that the bound and the rows come from one snapshot. Zero or less past the end.
 *
 * With gaps: the page starts at listed rank r (1 for the oldest) = numbered rows - gaps - offset;
 * the number of that row is r plus the gaps before it, which is the rank among gaps of the last
 * gap with fewer than r listed rows before it.
 */
export function newestNumberAt(partition: NumberedPartition, offset: number): { sql: string; params: Param[] } {
  const { table, column, where, params, gaps } = partition;
  const numbered = `(SELECT coalesce(max(${column}), 0) FROM ${table} WHERE ${where})`;
  if (gaps === undefined) return { sql: `(${numbered} - ?)`, params: [...params, offset] };
  const gapRank = '(SELECT g.pos - g.listed_before FROM list_gaps g WHERE g.list = ? AND g.org_id = ? AND g.part = ?';
  return {
    sql: `(SELECT x.r + coalesce(${gapRank} AND g.listed_before < x.r ORDER BY g.listed_before DESC, g.pos DESC LIMIT 1), 0)
             FROM (SELECT ${numbered} - coalesce(${gapRank} ORDER BY g.pos DESC LIMIT 1), 0) - ? AS r) x)`,
    params: [...gapParams(gaps), ...params, ...gapParams(gaps), offset],
  };
}

/**
 * Records as gaps the rows `select` answers (columns list, org_id, part, pos: rows whose flow was
 * just archived), then counts again, for each gap of the org, the listed rows before it. A pass
 * over the org's gaps: archiving is rare, and the lists read them at every page.
 */
export async function gapsOpened(sql: Statements, orgId: number, select: string, ...params: Param[]): Promise<void> {
  await sql.run(
    `INSERT INTO list_gaps (list, org_id, part, pos, listed_before) SELECT *, 0 FROM (${select}) opened`,
    ...params,
  );
  await sql.run(`${GAPS_RECOUNTED} WHERE org_id = ?) r WHERE ${GAP_MATCHED}`, orgId);
}

/** The listed rows before each gap (its number less its rank among its partition's gaps); a FROM and WHERE close it. */
export const GAPS_RECOUNTED = `UPDATE list_gaps SET listed_before = list_gaps.pos - r.n
  FROM (SELECT list, org_id, part, pos, row_number() OVER (PARTITION BY list, org_id, part ORDER BY pos) AS n FROM list_gaps`;

/** Joins a gap of GAPS_RECOUNTED to its recount. */
export const GAP_MATCHED =
  'list_gaps.list = r.list AND list_gaps.org_id = r.org_id AND list_gaps.part = r.part AND list_gaps.pos = r.pos';
