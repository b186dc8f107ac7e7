// Quick fixes, keyed by finding code, built from the facts the shared core put in `data`.
import { isMap, isScalar, isSeq } from 'yaml';
import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { diagnosticSource } from '../../../shared/protocol.ts';
import { formatOf, type DocumentKind } from '../../../shared/validate.ts';
import type { FindingData } from './diagnostics.ts';
import { nodeAt } from './nodes.ts';
import { treeOf } from './parsed.ts';
import { yamlScalarText } from './yamlText.ts';

type Fix = (context: FixContext) => CodeAction[];

interface FixContext {
  document: TextDocument;
  diagnostic: Diagnostic;
  data: FindingData;
  json: boolean;
}

const fixesByCode: Record<string, Fix> = {
  'template/unknown-key': replaceWithSuggestions('key'),
  'policy/unknown-key': replaceWithSuggestions('key'),
  'scan/unknown-key': replaceWithSuggestions('key'),
  'report/unknown-key': replaceWithSuggestions('key'),
  'template/unknown-attestation-type': replaceWithSuggestions('type'),
  'policy/unknown-attestation-type': replaceWithSuggestions('type'),
  'template/missing-version': insertExpectedLine('Add version: 1'),
  'template/bad-version': replaceWithExpectedValue('Set version: 1'),
  'policy/missing-schema': insertExpectedLine('Add the _schema URL'),
  'policy/bad-schema-url': replaceWithExpectedValue('Use the policy _schema URL'),
  'template/duplicate-name': renameDuplicate,
};

export function codeActionsFor(
  kind: DocumentKind,
  document: TextDocument,
  diagnostics: readonly Diagnostic[],
): CodeAction[] {
  const actions: CodeAction[] = [];
  const json = formatOf(kind) === 'json';
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== diagnosticSource || typeof diagnostic.code !== 'string') continue;
    const fix = fixesByCode[diagnostic.code];
    const data = diagnostic.data as FindingData | undefined;
    if (fix === undefined || data === undefined || !Array.isArray(data.path)) continue;
    actions.push(...fix({ document, diagnostic, data, json }));
  }
  return actions;
}

function action(title: string, context: FixContext, edits: TextEdit[], preferred: boolean): CodeAction {
  return {
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [context.diagnostic],
    isPreferred: preferred,
    edit: { changes: { [context.document.uri]: edits } },
  };
}

function replaceWithSuggestions(what: 'key' | 'type'): Fix {
  return (context) => {
    const suggestions = context.data.facts?.suggestions;
    if (!Array.isArray(suggestions)) return [];
    return suggestions
      .filter((suggestion): suggestion is string => typeof suggestion === 'string')
      .map((suggestion, index) =>
        action(
          `Change ${what} to '${suggestion}'`,
          context,
          [{ range: context.diagnostic.range, newText: written(suggestion, context) }],
          index === 0,
        ),
      );
  };
}

// `data.expected` reads `<key>: <value>`.
function expectedParts(context: FixContext): { key: string; value: string } | undefined {
  const expected = context.data.facts?.expected;
  if (typeof expected !== 'string') return undefined;
  const colon = expected.indexOf(': ');
  return colon < 0 ? undefined : { key: expected.slice(0, colon), value: expected.slice(colon + 2) };
}

function insertExpectedLine(title: string): Fix {
  return (context) => {
    const expected = expectedParts(context);
    if (expected === undefined || context.json) return [];
    // A first-line modeline must stay the first line.
    const text = context.document.getText();
    const line = /^#\s*cev:/.test(text) ? 1 : 0;
    const at = { line, character: 0 };
    return [
      action(
        title,
        context,
        [{ range: { start: at, end: at }, newText: `${expected.key}: ${expected.value}\n` }],
        true,
      ),
    ];
  };
}

function replaceWithExpectedValue(title: string): Fix {
  return (context) => {
    const expected = expectedParts(context);
    if (expected === undefined || context.data.target !== 'value') return [];
    return [action(title, context, [{ range: context.diagnostic.range, newText: expected.value }], true)];
  };
}

function renameDuplicate(context: FixContext): CodeAction[] {
  const name = context.data.facts?.name;
  if (typeof name !== 'string') return [];
  // A duplicate written as an alias (`- *a`) is placed on the alias: writing a name there would
  // replace the whole entry with a string, so it has no rename.
  if (context.document.getText(context.diagnostic.range).startsWith('*')) return [];
  const list = nodeAt(treeOf(context.document), context.data.path.slice(0, -2));
  const taken = new Set<string>();
  if (isSeq(list)) {
    for (const item of list.items) {
      const value = isMap(item) ? item.get('name', true) : undefined;
      if (isScalar(value)) taken.add(String(value.value));
    }
  }
  let n = 2;
  while (taken.has(`${name}-${n}`)) n++;
  const renamed = `${name}-${n}`;
  return [
    action(
      `Rename to '${renamed}'`,
      context,
      [{ range: context.diagnostic.range, newText: written(renamed, context) }],
      true,
    ),
  ];
}

function written(value: string, context: FixContext): string {
  const current = context.document.getText(context.diagnostic.range);
  if (context.json || current.startsWith('"')) return JSON.stringify(value);
  if (current.startsWith("'")) return `'${value.replace(/'/g, "''")}'`;
  return yamlScalarText(value);
}
