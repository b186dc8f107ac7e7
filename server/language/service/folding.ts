// Folding ranges: every key or list item whose value spans more than one line.
import { isMap, isPair, isSeq } from 'yaml';
import type { FoldingRange } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { spanOf, visibleEnd } from './nodes.ts';
import { treeOf } from './parsed.ts';

const maxRanges = 5000;

export function foldingRangesOf(document: TextDocument): FoldingRange[] {
  const text = document.getText();
  const ranges: FoldingRange[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > 200 || ranges.length >= maxRanges) return;
    if (!isMap(node) && !isSeq(node)) return;
    for (const item of node.items as unknown[]) {
      const span = spanOf(item);
      if (span !== undefined) {
        const startLine = document.positionAt(span[0]).line;
        const endLine = document.positionAt(Math.max(span[0], visibleEnd(text, span[0], span[1]) - 1)).line;
        if (endLine > startLine) ranges.push({ startLine, endLine });
      }
      visit(isPair(item) ? item.value : item, depth + 1);
    }
  };
  visit(treeOf(document).contents, 0);
  return ranges;
}
