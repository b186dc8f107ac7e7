// What the cursor is about to write: a key (and in which object) or a value (and at which path).
// Found by writing a marker where the cursor is and parsing that text: the parser, not a guess
// from indentation, says where the marker lands, in YAML and JSON alike.
import { isMap, isPair, isScalar, isSeq } from 'yaml';
import type { PathSegment } from '../../../shared/findings.ts';
import { parseTree } from './trees.ts';

export const marker = '__cev_cursor__';

export interface CursorContext {
  /** `key`: a key of the object at `path`; `value`: the value at `path`. */
  role: 'key' | 'value';
  path: PathSegment[];
  /** Keys the object already has (for `key`), without the one being written. */
  siblings: string[];
  /** Text span the completion replaces: the partial word at the cursor. */
  replace: { start: number; end: number };
  /** True when the cursor starts a new list item (`- |`): whole-entry snippets fit here. */
  startsItem: boolean;
  /** Column the current line's content starts at, for indenting multi-line insertions. */
  indent: number;
  json: boolean;
  /** Inside a JSON string: completions insert its content, without quotes. */
  quoted: boolean;
}

export function cursorContextAt(text: string, offset: number): CursorContext | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  const before = text.slice(lineStart, offset);
  const after = text.slice(offset, lineEnd);
  const indent = before.length - before.trimStart().length;
  const json = /^\s*[[{]/.test(text);

  let start = offset;
  let end = offset;
  let probe: string;
  let quoted = false;
  if (json) {
    // Inside a quoted string: the marker replaces its content, the parse says key or value.
    const quote = before.lastIndexOf('"');
    const quotesBefore = (before.match(/"/g) ?? []).length;
    if (quotesBefore % 2 === 1) {
      quoted = true;
      start = lineStart + quote + 1;
      const close = after.indexOf('"');
      end = close < 0 ? offset : offset + close;
      probe = text.slice(0, start) + marker + text.slice(end);
    } else {
      probe = text.slice(0, offset) + `"${marker}"` + text.slice(offset);
    }
  } else {
    const keyLine = /^(\s*)((?:-\s+)*)([\w$.*-]*)$/.exec(before);
    const valueLine = /^\s*(?:-\s+)*(?:"[^"]*"|'[^']*'|[^\s:#'"][^:#]*?)\s*:\s+(["']?)([\w$.*:/-]*)$/.exec(before);
    const trailing = /^[\w$.*:/-]*/.exec(after)![0];
    if (valueLine !== null) {
      start = offset - valueLine[2].length;
      end = offset + trailing.length;
      probe = text.slice(0, start) + marker + text.slice(end);
    } else if (keyLine !== null) {
      start = offset - keyLine[3].length;
      const keyTail = /^[\w$.*-]*/.exec(after)![0];
      end = offset + keyTail.length;
      const hasColon = /^\s*:/.test(text.slice(end, lineEnd));
      probe = text.slice(0, start) + (hasColon ? marker : `${marker}:`) + text.slice(end);
    } else {
      return undefined;
    }
  }

  const found = findMarker(parseTree(probe).contents, []);
  if (found === undefined) return undefined;
  const startsItem = /^\s*(?:-\s+)+$/.test(text.slice(lineStart, start));
  return { ...found, replace: { start, end }, startsItem, indent, json, quoted };
}

function findMarker(
  node: unknown,
  path: PathSegment[],
  depth = 0,
): Pick<CursorContext, 'role' | 'path' | 'siblings'> | undefined {
  if (depth > 200) return undefined;
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      if (key === marker) {
        const siblings = node.items
          .map((item) => (isPair(item) && isScalar(item.key) ? String(item.key.value) : ''))
          .filter((name) => name !== marker && name !== '');
        return { role: 'key', path, siblings };
      }
      if (isScalar(pair.value) && pair.value.value === marker)
        return { role: 'value', path: [...path, String(key)], siblings: [] };
      const inner = findMarker(pair.value, [...path, String(key)], depth + 1);
      if (inner !== undefined) return inner;
    }
  } else if (isSeq(node)) {
    for (const [index, item] of node.items.entries()) {
      if (isScalar(item) && item.value === marker) return { role: 'value', path: [...path, index], siblings: [] };
      const inner = findMarker(item, [...path, index], depth + 1);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}
