// The outline: every key, with list items named by their `name` (trail attestations, artifacts
// and their attestations, policy rules) or `podName` (K8S report pods), detailed by their `type`.
import { isMap, isPair, isScalar, isSeq, type YAMLMap } from 'yaml';
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentKind } from '../../../shared/validate.ts';
import { spanOf, visibleEnd } from './nodes.ts';
import { treeOf } from './parsed.ts';

const maxSymbols = 5000;
const itemNameKeys: Record<DocumentKind, readonly string[]> = {
  'flow-template': ['name'],
  'env-policy': ['name', 'type'],
  'scan-attestation': ['name', 'attestation_name'],
  'k8s-report': ['podName', 'name'],
};

export function documentSymbolsOf(kind: DocumentKind, document: TextDocument): DocumentSymbol[] {
  let budget = maxSymbols;
  const text = document.getText();
  const rangeOf = (span: [number, number]) => ({
    start: document.positionAt(span[0]),
    end: document.positionAt(visibleEnd(text, span[0], span[1])),
  });

  const childrenOf = (node: unknown, depth: number): DocumentSymbol[] | undefined => {
    if (depth > 50 || budget <= 0) return undefined;
    const symbols: DocumentSymbol[] = [];
    if (isMap(node)) {
      for (const pair of node.items) {
        const span = spanOf(pair);
        const keySpan = spanOf(pair.key);
        if (span === undefined || keySpan === undefined || budget-- <= 0) continue;
        const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        symbols.push({
          name: name === '' ? '""' : name,
          detail: isScalar(pair.value) ? String(pair.value.value) : undefined,
          kind: symbolKindOf(pair.value),
          range: rangeOf(span),
          selectionRange: rangeOf(keySpan),
          children: childrenOf(pair.value, depth + 1),
        });
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        const span = spanOf(item);
        if (span === undefined || budget-- <= 0) return;
        const named = isMap(item) ? itemName(item, itemNameKeys[kind]) : undefined;
        symbols.push({
          name: named ?? (isScalar(item) ? String(item.value) : `[${index}]`),
          detail: isMap(item) ? scalarText(item, 'type') : undefined,
          kind: symbolKindOf(item),
          range: rangeOf(span),
          selectionRange: rangeOf(span),
          children: isMap(item) || isSeq(item) ? childrenOf(item, depth + 1) : undefined,
        });
      });
    } else {
      return undefined;
    }
    return symbols;
  };
  return childrenOf(treeOf(document).contents, 0) ?? [];
}

function itemName(item: YAMLMap, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = scalarText(item, key);
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

function scalarText(item: YAMLMap, key: string): string | undefined {
  const value = item.get(key, true);
  // A scalar's toString() is its value's text.
  return isScalar(value) && value.value !== null && typeof value.value !== 'object' ? value.toString() : undefined;
}

function symbolKindOf(value: unknown): SymbolKind {
  if (isSeq(value)) return SymbolKind.Array;
  if (isMap(value)) return SymbolKind.Object;
  if (isPair(value)) return SymbolKind.Property;
  if (isScalar(value)) {
    if (typeof value.value === 'number') return SymbolKind.Number;
    if (typeof value.value === 'boolean') return SymbolKind.Boolean;
    if (value.value === null) return SymbolKind.Null;
  }
  return SymbolKind.String;
}
