// The syntax tree of each open YAML document, kept across edits. An edit inside one block list
// item (a trail attestation, an artifact) re-parses that item alone and grafts it into the
// previous tree; everything else is shifted, not re-parsed. Any doubt — a syntax error before or
// after, anchors, aliases, tags, an edit that crosses an item's bounds — falls back to a full
// parse, so the tree is always the one a full parse of the text gives.
import { isAlias, isMap, isPair, isSeq, type Document, type Node, type ParsedNode, type YAMLSeq } from 'yaml';
import { limits } from '../../../shared/limits.ts';
import { parseYamlTree, treeNestsDeeperThan } from '../../../shared/text/yamlTree.ts';

export type Tree = Document.Parsed;

interface Kept {
  text: string;
  tree: Tree;
  /** Whether the tree may be patched: no syntax findings, no anchors, aliases or tags. */
  patchable: boolean;
}

/** A full parse, as the shared core does it (within its limits). */
export function parseTree(text: string): Tree {
  return parseYamlTree(text);
}

export interface TreeCache {
  /** The tree of `text`, reusing the tree last given for `key` where the edit allows. */
  treeFor(key: object, text: string): Tree;
}

export function createTreeCache(): TreeCache {
  const kept = new WeakMap<object, Kept>();
  return {
    treeFor(key, text) {
      const previous = kept.get(key);
      if (previous !== undefined && previous.text === text) return previous.tree;
      const patched = previous?.patchable ? patchedTree(previous, text) : undefined;
      const tree = patched ?? parseTree(text);
      kept.set(key, { text, tree, patchable: patched !== undefined || isPatchable(tree) });
      return tree;
    },
  };
}

/** The previous tree with the edited list item re-parsed, or undefined when that is not safe. */
function patchedTree(previous: { text: string; tree: Tree }, text: string): Tree | undefined {
  const before = previous.text;
  const edit = changedSpan(before, text);
  const delta = text.length - before.length;
  const slot = innermostItemAround(previous.tree.contents, before, edit.start, edit.oldEnd);
  if (slot === undefined) return undefined;
  const { seq, index, regionStart, regionEnd, depth } = slot;
  const chunk = text.slice(regionStart, regionEnd + delta);
  const parsed = parseYamlTree(chunk);
  if (parsed.errors.length > 0 || parsed.warnings.length > 0) return undefined;
  const root = parsed.contents;
  if (!isSeq(root) || root.flow || root.items.length !== 1 || !staysInside(chunk, before, regionStart))
    return undefined;
  const item = root.items[0];
  // The item nested where it goes must stay within the depth a full parse allows.
  if (!isPatchableNode(item, 0) || treeNestsDeeperThan(item, limits.yamlDepth - depth)) return undefined;
  const oldRange = (seq.items[index] as ParsedNode).range;
  shiftNode(item, (offset) => offset + regionStart);
  const newRange = item.range;
  seq.items[index] = item;
  // Ancestors ending with the item now end where the new item ends; what follows moves by delta.
  const move = (offset: number): number => {
    if (offset >= regionEnd) return offset + delta;
    if (offset > oldRange[0])
      return offset === oldRange[1] ? newRange[1] : offset === oldRange[2] ? newRange[2] : offset;
    return offset;
  };
  shiftTree(previous.tree, move, item);
  return previous.tree;
}

// A `%YAML` or `%TAG` directive changes how the whole document reads; an item parsed alone
// would not see it.
function isPatchable(tree: Tree): boolean {
  const directives = tree.directives;
  const plainDirectives =
    directives === undefined ||
    (directives.yaml.explicit !== true &&
      Object.keys(directives.tags).every((handle) => handle === '!!' || handle === '!'));
  return tree.errors.length === 0 && tree.warnings.length === 0 && plainDirectives && isPatchableNode(tree.contents, 0);
}

// Anchors, aliases and explicit tags tie one part of a document to another: patch none of them.
function isPatchableNode(node: unknown, depth: number): boolean {
  if (node === null || node === undefined) return true;
  if (depth > 500 || isAlias(node)) return false;
  const plain = node as Node;
  if (plain.anchor !== undefined || (plain.tag !== undefined && !plain.tag.startsWith('tag:yaml.org,2002:')))
    return false;
  if (isMap(node))
    return node.items.every((pair) => isPatchableNode(pair.key, depth + 1) && isPatchableNode(pair.value, depth + 1));
  if (isSeq(node)) return node.items.every((item) => isPatchableNode(item, depth + 1));
  return true;
}

/** The changed span: common prefix and suffix of the two texts stay. */
function changedSpan(before: string, after: string): { start: number; oldEnd: number } {
  const limit = Math.min(before.length, after.length);
  let start = 0;
  while (start < limit && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let suffix = 0;
  while (
    suffix < limit - start &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  )
    suffix++;
  return { start, oldEnd: before.length - suffix };
}

interface Slot {
  seq: YAMLSeq;
  index: number;
  /** Start of the item's `- ` line and start of the line after its region (old text). */
  regionStart: number;
  regionEnd: number;
  /** Collections around the item, its list included. */
  depth: number;
}

// The deepest block list item whose lines hold the whole edit, after its `- ` indicator.
function innermostItemAround(node: unknown, text: string, start: number, end: number): Slot | undefined {
  let found: Slot | undefined;
  let current: unknown = node;
  let collections = 0;
  for (let depth = 0; depth < 500 && current; depth++) {
    if (isMap(current) || isSeq(current)) collections++;
    if (isMap(current) && !current.flow) {
      const pair = current.items.find((candidate) => {
        const value = candidate.value as Node | null;
        const key = candidate.key as Node | null;
        return key?.range && value?.range && key.range[0] <= start && end <= value.range[2];
      });
      current = pair?.value;
    } else if (isSeq(current) && !current.flow) {
      const items = current.items as ParsedNode[];
      const index = items.findIndex((item, i) => item.range[0] <= start && end < regionEndOf(text, items, i));
      if (index < 0) break;
      const item = items[index];
      const regionStart = lineStartOf(text, item.range[0]);
      if (!/^[ ]*-[ ]+$/.test(text.slice(regionStart, item.range[0]))) break;
      found = { seq: current, index, regionStart, regionEnd: regionEndOf(text, items, index), depth: collections };
      current = item;
    } else {
      break;
    }
  }
  return found;
}

// Every line after the first must stay deeper than the `- ` indicator, or the item would swallow
// or release lines that a full parse places elsewhere.
function staysInside(chunk: string, before: string, regionStart: number): boolean {
  const dashColumn = before.slice(regionStart).search(/\S/);
  const lines = chunk.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const content = line.search(/\S/);
    if (content < 0 || line[content] === '#') continue;
    if (content <= dashColumn) return false;
  }
  return true;
}

/** Where an item's lines end: at the next item's line, or after the last line with its content. */
function regionEndOf(text: string, items: readonly ParsedNode[], index: number): number {
  const next = items[index + 1];
  return next ? lineStartOf(text, next.range[0]) : lineStartAfter(text, lastContent(text, items[index]));
}

function lastContent(text: string, item: ParsedNode): number {
  let last = Math.min(item.range[1], text.length) - 1;
  while (last > item.range[0] && /\s/.test(text[last])) last--;
  return last;
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineStartAfter(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline < 0 ? text.length : newline + 1;
}

function shiftNode(node: unknown, move: (offset: number) => number, skip?: unknown, depth = 0): void {
  if (node === null || node === undefined || node === skip || depth > 500) return;
  if (isPair(node)) {
    shiftNode(node.key, move, skip, depth + 1);
    shiftNode(node.value, move, skip, depth + 1);
    return;
  }
  const range = (node as Node).range;
  if (range) (node as Node).range = [move(range[0]), move(range[1]), move(range[2])];
  if (isMap(node) || isSeq(node)) for (const item of node.items as unknown[]) shiftNode(item, move, skip, depth + 1);
}

function shiftTree(tree: Tree, move: (offset: number) => number, skip: unknown): void {
  tree.range = [move(tree.range[0]), move(tree.range[1]), move(tree.range[2])];
  shiftNode(tree.contents, move, skip);
}
