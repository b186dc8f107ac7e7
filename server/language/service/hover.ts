// Hover: the schema's description of the key under the cursor, what makes an attestation type
// compliant, and inside `${{ }}` what a context, function or keyword means.
import { isScalar } from 'yaml';
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { describeCompliance } from '../../../shared/compliance/index.ts';
import type { DocumentKind } from '../../../shared/validate.ts';
import { conditionWordAt, expressionWordFor, isInsideCondition, operatorAt } from './expressionWords.ts';
import { locate, spanOf } from './nodes.ts';
import { treeOf } from './parsed.ts';
import { schemaIndex, schemaOfKind } from './schemas.ts';
import { choicesOf, descriptionOf, schemasAt } from './schemaWalk.ts';

export function hoverAt(kind: DocumentKind, document: TextDocument, position: Position): Hover | null {
  const text = document.getText();
  const offset = document.offsetAt(position);
  if (isInsideCondition(text, offset)) return conditionHover(document, text, offset);
  const root = schemaOfKind(kind);
  if (root === undefined) return null;
  const located = locate(treeOf(document), offset);
  if (located.path.length === 0 || located.node === undefined) return null;
  const span = spanOf(located.node);
  const range =
    span === undefined ? undefined : { start: document.positionAt(span[0]), end: document.positionAt(span[1]) };
  const schemas = schemasAt(schemaIndex, root, located.path);
  const key = located.path[located.path.length - 1];
  if (located.onKey) {
    const description = descriptionOf(schemas);
    return description === undefined ? null : { contents: markdown(`**${String(key)}**\n\n${description}`), range };
  }
  if (!isScalar(located.node)) return null;
  const value = located.node.value;
  const parts: string[] = [];
  if (key === 'type' && typeof value === 'string') {
    const compliance = describeCompliance(value);
    if (compliance !== undefined) parts.push(`**${value}**\n\n${compliance}`);
  }
  if (parts.length === 0) {
    const choice = choicesOf(schemas).find((candidate) => candidate.value === value);
    const description = choice?.description ?? descriptionOf(schemas);
    if (description !== undefined) parts.push(`**${String(key)}**\n\n${description}`);
  }
  return parts.length === 0 ? null : { contents: markdown(parts.join('\n\n')), range };
}

function conditionHover(document: TextDocument, text: string, offset: number): Hover | null {
  const word = conditionWordAt(text, offset);
  const entry = word.word !== '' ? expressionWordFor(word.word) : undefined;
  if (entry !== undefined) {
    return {
      contents: markdown(`**${entry.label}** (${entry.detail})\n\n${entry.description}`),
      range: { start: document.positionAt(word.start), end: document.positionAt(word.end) },
    };
  }
  const operator = operatorAt(text, offset);
  const described = operator === undefined ? undefined : expressionWordFor(operator);
  return described === undefined ? null : { contents: markdown(`**${described.label}**\n\n${described.description}`) };
}

function markdown(value: string): { kind: 'markdown'; value: string } {
  return { kind: MarkupKind.Markdown, value };
}
