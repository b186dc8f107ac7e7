import type { Param } from './db.ts';

/**
 * The tag filter of every list that takes one, as a condition on a JSON tags column: `key`
 * matches a row carrying that tag, `key<separator>value` one whose tag has that value. Lists take
 * `key:value`; the org-level trail list's flow_tag takes `key=value`. A damaged tags column
 * matches no tag instead of failing the list.
 */
export function tagCondition(column: string, filter: string, separator: ':' | '='): { sql: string; params: Param[] } {
  const tags = `json_each(CASE WHEN json_valid(${column}) THEN ${column} ELSE '{}' END)`;
  const at = filter.indexOf(separator);
  if (at === -1) return { sql: `EXISTS (SELECT 1 FROM ${tags} WHERE key = ?)`, params: [filter] };
  return {
    sql: `EXISTS (SELECT 1 FROM ${tags} WHERE key = ? AND CAST(value AS TEXT) = ?)`,
    params: [filter.slice(0, at), filter.slice(at + 1)],
  };
}
