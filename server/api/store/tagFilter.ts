import type { Param } from './db.ts';

/**
 * The SQL form of rules/tags.ts's hasTag on a JSON tags column: `key` matches a row carrying that
 * tag, `key<separator>value` one whose tag has that value. A damaged tags column matches no tag.
 */
export function tagCondition(column: string, filter: string, separator: ':' | '='): { sql: string; params: Param[] } {
  const tags = `json_each(CASE WHEN json_valid(${column}) THEN ${column} ELSE '{}' END)`;
  const at = filter.indexOf(separator);
  if (at === -1) return { sql: `EXISTS (SELECT 1 FROM ${tags} WHERE key = ?)`, params: [filter] };
  return { sql: `EXISTS (SELECT 1 FROM ${tags} WHERE key = ? AND CAST(value AS TEXT) = ?)`, params: [filter.slice(0, at), filter.slice(at + 1)] };
}
