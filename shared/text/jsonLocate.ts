// Where paths of a JSON document's value are in its text, found in one pass over the text for all
// the paths asked at once: reading a 15 MB report into a YAML tree to place one finding took 39 s
// and 1.2 GB. The text is valid JSON (JSON.parse read it). Places are the ones the YAML tree
// gives (locate.ts): a key or value with its quotes, the first line of an object or array, the
// nearest existing parent of a path that does not exist, the first of repeated keys.
import type { PathSegment, TextRange } from '../findings.ts';
import type { Locator } from './locate.ts';
import { lineEndAt } from './positions.ts';

/** A node of the paths asked, and where the text has it once the pass found it. */
interface Wanted {
  /** By segment as text: an object's key `0` is asked as 0 or '0' alike, as in the YAML tree. */
  children: Map<string, Wanted>;
  /** Asked as a number: only then can it be an array's item. */
  asIndex: boolean;
  key?: TextRange;
  start?: number;
  end?: number;
  /** Set for an object or array: whether it is an array. */
  array?: boolean;
}

function wantedOf(paths: readonly (readonly PathSegment[])[]): Wanted {
  const root: Wanted = { children: new Map(), asIndex: false };
  for (const path of paths) {
    let node = root;
    for (const segment of path) {
      let child = node.children.get(String(segment));
      if (child === undefined) {
        child = { children: new Map(), asIndex: false };
        node.children.set(String(segment), child);
      }
      if (typeof segment === 'number') child.asIndex = true;
      node = child;
    }
  }
  return root;
}

interface Frame {
  node: Wanted | undefined;
  array: boolean;
  index: number;
}

function skipSpace(text: string, i: number): number {
  let at = i;
  while (at < text.length && (text[at] === ' ' || text[at] === '\t' || text[at] === '\n' || text[at] === '\r')) at++;
  return at;
}

/** The offset after the string that opens at `open`. */
function stringEnd(text: string, open: number): number {
  let at = open + 1;
  while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
  return at + 1;
}

/** The offset after the number or literal at `start`. */
function scalarEnd(text: string, start: number): number {
  let at = start;
  while (at < text.length && !',]} \t\r\n'.includes(text[at])) at++;
  return at;
}

/** Reads the whole text once, noting where each wanted node is. */
function place(text: string, root: Wanted): void {
  const stack: Frame[] = [];
  let at = 0;
  // The wanted node of the value about to be read, if any, and the key it is under.
  let next: Wanted | undefined = root;
  let key: TextRange | undefined;
  while (true) {
    at = skipSpace(text, at);
    if (at >= text.length) return;
    const c = text[at];
    const top = stack.at(-1);
    if (c === ',' || c === ']' || c === '}') {
      if (c !== ',') {
        stack.pop();
        const closed = top?.node;
        if (closed !== undefined && closed.end === undefined) closed.end = at + 1;
      }
      at++;
      continue;
    }
    if (top !== undefined && !top.array && key === undefined) {
      // An object member's key, then its colon.
      const end = stringEnd(text, at);
      const raw = text.slice(at + 1, end - 1);
      const name = raw.includes('\\') ? (JSON.parse(text.slice(at, end)) as string) : raw;
      const child = top.node?.children.get(name);
      // The first of repeated keys is the one placed.
      next = child !== undefined && child.start === undefined ? child : undefined;
      key = { start: at, end };
      at = skipSpace(text, end) + 1;
      continue;
    }
    if (top?.array === true) {
      const child = top.node?.children.get(String(top.index));
      next = child !== undefined && child.start === undefined && child.asIndex ? child : undefined;
      top.index += 1;
    }
    if (next !== undefined) {
      next.key = key;
      next.start = at;
    }
    if (c === '{' || c === '[') {
      if (next !== undefined) next.array = c === '[';
      stack.push({ node: next, array: c === '[', index: 0 });
      at++;
    } else {
      const end = c === '"' ? stringEnd(text, at) : scalarEnd(text, at);
      if (next !== undefined) next.end = end;
      at = end;
    }
    next = undefined;
    key = undefined;
  }
}

/** Places the `paths` of a valid JSON text; asking for another path places it at the root. */
export function jsonLocatorOf(text: string, paths: readonly (readonly PathSegment[])[]): Locator {
  const root = wantedOf(paths);
  place(text, root);
  return (path, target) => {
    let node = root;
    let found = 0;
    for (const segment of path) {
      // An array's items are asked by number only; an object's keys by either.
      if (node.array === true && typeof segment !== 'number') break;
      const child = node.children.get(String(segment));
      if (child?.start === undefined) break;
      node = child;
      found++;
    }
    const start = node.start ?? 0;
    const end = node.end ?? text.length;
    if (node.key !== undefined && (target === 'key' || found < path.length)) return node.key;
    if (node.array !== undefined) return { start, end: Math.min(end, Math.max(start, lineEndAt(text, start))) };
    return { start, end };
  };
}
