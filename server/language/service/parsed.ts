// The syntax tree of an open document, shared by diagnostics, completion, hover, outline, folding
// and quick fixes, and carried from one version to the next (see trees.ts). `yaml` reads JSON
// too, so one tree serves every kind.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { limits } from '../../../shared/limits.ts';
import { createTreeCache, parseTree, type Tree } from './trees.ts';

export type { Tree } from './trees.ts';

const trees = createTreeCache();
/** The tree of a document too large to read: empty, so completion, hover, outline and folding offer nothing. */
const unread = parseTree('');

/**
 * The document's tree; none for a document longer than limits.documentChars (a JSON report may be
 * up to 16 MB, whose YAML tree took 1.2 GB): its diagnostics need no tree, and say so when it is
 * over its own limit.
 */
export function treeOf(document: TextDocument): Tree {
  const text = document.getText();
  return text.length > limits.documentChars ? unread : trees.treeFor(document, text);
}
