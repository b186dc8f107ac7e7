// Where an offset falls in the syntax tree: the path of keys and indexes leading to it, and
// whether it is on a key or a value. Completion and hover start from here.
import { isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import type { PathSegment } from '../../../shared/findings.ts';
import type { Tree } from './parsed.ts';

export interface Located {
  /** Path of the innermost key or item that holds the offset. */
  path: PathSegment[];
  /** On the key of the last path step (true) or inside its value (false). */
  onKey: boolean;
  /** The innermost node at the offset, if any. */
  node?: Node;
}

export function locate(tree: Tree, offset: number): Located {
  const path: PathSegment[] = [];
  let node: unknown = tree.contents;
  let result: Located = { path: [], onKey: false, node: tree.contents ?? undefined };
  for (let depth = 0; depth < 1000 && node; depth++) {
    if (isMap(node)) {
      const pair = node.items.find((item) => contains(item, offset));
      if (pair === undefined) break;
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      if (typeof key !== 'string' && typeof key !== 'number') break;
      path.push(String(key));
      const keyNode = pair.key as Node | null;
      if (keyNode?.range && offset <= keyNode.range[1]) {
        result = { path: [...path], onKey: true, node: keyNode };
        break;
      }
      result = { path: [...path], onKey: false, node: (pair.value ?? undefined) as Node | undefined };
      node = pair.value;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => contains(item, offset));
      if (index < 0) break;
      path.push(index);
      node = node.items[index];
      result = { path: [...path], onKey: false, node: node as Node };
    } else {
      break;
    }
  }
  return result;
}

/** The node at `path`, without resolving aliases. */
export function nodeAt(tree: Tree, path: readonly PathSegment[]): unknown {
  return path.length === 0 ? tree.contents : tree.getIn(path, true);
}

/** Start and end offsets of a node, pair or item; undefined when it has no place in the text. */
export function spanOf(item: unknown): [number, number] | undefined {
  if (isPair(item)) {
    const key = spanOf(item.key);
    const value = spanOf(item.value);
    if (key === undefined) return value;
    return [key[0], value === undefined ? key[1] : Math.max(key[1], value[1])];
  }
  const range = (item as Node | null | undefined)?.range;
  return range ? [range[0], range[1]] : undefined;
}

function contains(item: unknown, offset: number): boolean {
  const span = spanOf(item);
  return span !== undefined && span[0] <= offset && offset <= span[1];
}

/** Where a span's text ends, without the blank lines and spaces a node range may carry after it. */
export function visibleEnd(text: string, start: number, end: number): number {
  let last = Math.min(end, text.length);
  while (last > start && /\s/.test(text[last - 1])) last--;
  return last;
}
