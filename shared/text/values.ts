// Small questions about plain parsed values, asked by every checker.
import type { PathSegment } from '../findings.ts';

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value if it is an object, else an empty one: readers that must be total on any input read absent fields from it. */
export function objectOrEmpty(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

/** The value at `path`, or `undefined` when the path leaves the value. */
export function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let node: unknown = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/**
 * Whether a parsed JSON value nests containers more than `limit` levels deep. Walks without
 * recursion, so it answers for any depth, including depths that would overflow a recursive walk.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
