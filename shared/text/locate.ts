// Maps a path into a parsed value back to the text that holds it. Nodes come from the `yaml`
// document (which parses JSON too); a path that does not exist stops at its nearest existing
// parent, so "Field required" lands on the object that lacks the field. A path that passes
// through an alias (`*a`) is placed on the alias: that is where the repeated content is written,
// while the anchored node it resolves to is another entry. Each map's keys are indexed once, so
// placing every finding of a map of many keys stays linear.
import { isAlias, isCollection, isMap, isNode, isSeq } from 'yaml';
import type { Document, Node, Pair, YAMLMap } from 'yaml';
import type { PathSegment, TextRange } from '../findings.ts';
import { lineEndAt } from './positions.ts';

export type Locator = (path: readonly PathSegment[], target: 'key' | 'value') => TextRange;

/** Places paths of one document's value in its text. */
export function locatorOf(doc: Document, text: string): Locator {
  const indexes = new WeakMap<YAMLMap, Map<string, Pair>>();
  const pairOf = (map: YAMLMap, segment: PathSegment): Pair | undefined => {
    let index = indexes.get(map);
    if (index === undefined) {
      index = new Map();
      // The first pair of a repeated key, as a search from the start finds it.
      for (const item of map.items) {
        const text = keyText(item.key);
        if (!index.has(text)) index.set(text, item);
      }
      indexes.set(map, index);
    }
    return index.get(String(segment));
  };
  return (path, target) => rangeOf(doc, text, path, target, pairOf);
}

function rangeOf(
  doc: Document,
  text: string,
  path: readonly PathSegment[],
  target: 'key' | 'value',
  pairOf: (map: YAMLMap, segment: PathSegment) => Pair | undefined,
): TextRange {
  let node: unknown = doc.contents;
  let key: Node | undefined;
  let found = 0;
  let alias: Node | undefined;
  for (const segment of path) {
    if (isAlias(node)) {
      alias ??= node;
      node = node.resolve(doc);
    }
    if (isMap(node)) {
      const pair = pairOf(node, segment);
      if (pair === undefined) break;
      key = isNode(pair.key) ? pair.key : undefined;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
      key = undefined;
      node = node.items[segment];
    } else {
      break;
    }
    found++;
  }

  if (alias?.range) return { start: alias.range[0], end: alias.range[1] };
  const complete = found === path.length;
  const nodeRange = isNode(node) ? node.range : undefined;
  const keyRange = key?.range;
  if (keyRange && (target === 'key' || !complete || !nodeRange || nodeRange[0] === nodeRange[1])) {
    return { start: keyRange[0], end: keyRange[1] };
  }
  if (!nodeRange) return headOf(text, 0);
  if (isCollection(node)) return headOf(text, nodeRange[0], nodeRange[1]);
  return { start: nodeRange[0], end: Math.max(nodeRange[0], nodeRange[1]) };
}

/** A key's text (a scalar's is its value's); keys of a parsed document are nodes, or null when empty. */
function keyText(key: unknown): string {
  return isNode(key) ? key.toString() : '';
}

/** The first line of a node: a block map's problem is shown on its first line, not on all of them. */
function headOf(text: string, start: number, end = text.length): TextRange {
  const clampedStart = Math.min(start, text.length);
  return { start: clampedStart, end: Math.min(end, Math.max(clampedStart, lineEndAt(text, clampedStart))) };
}
