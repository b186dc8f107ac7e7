// The syntax tree of an open document, shared by diagnostics, completion, hover, outline, folding
// and quick fixes, and carried from one version to the next (see trees.ts). `yaml` reads JSON
// too, so one tree serves every kind.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { createTreeCache, type Tree } from './trees.ts';

export type { Tree } from './trees.ts';

const trees = createTreeCache();

export function treeOf(document: TextDocument): Tree {
  return trees.treeFor(document, document.getText());
}
