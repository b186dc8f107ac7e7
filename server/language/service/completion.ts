// Completion: keys the schema allows at the cursor (whole entries as snippets), the values it names,
// and the words of `${{ }}` conditions.
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type CompletionList,
  type Position,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentKind } from '../../../shared/validate.ts';
import { cursorContextAt, type CursorContext } from './cursor.ts';
import { conditionWordAt, expressionWords, isInsideCondition } from './expressionWords.ts';
import { schemaIndex, schemaOfKind } from './schemas.ts';
import {
  choicesOf,
  definitionNameOf,
  descriptionOf,
  expand,
  isArraySchema,
  isObjectSchema,
  valuePrefixesOf,
  propertiesAt,
  requiredOf,
  schemasAt,
  type Schema,
  type SchemaIndex,
} from './schemaWalk.ts';
import { yamlScalarText } from './yamlText.ts';

export const completionTriggerCharacters = ['.', ':', ' ', '-', '"'];

export function completionsAt(kind: DocumentKind, document: TextDocument, position: Position): CompletionList {
  const text = document.getText();
  const offset = document.offsetAt(position);
  if (isInsideCondition(text, offset))
    return { isIncomplete: false, items: conditionCompletions(document, text, offset) };
  const root = schemaOfKind(kind);
  const context = cursorContextAt(text, offset);
  if (root === undefined || context === undefined) return { isIncomplete: false, items: [] };
  const range = { start: document.positionAt(context.replace.start), end: document.positionAt(context.replace.end) };
  const column = context.replace.start - (text.lastIndexOf('\n', context.replace.start - 1) + 1);
  const continuation = ' '.repeat(Math.max(0, column - context.indent));
  const items =
    context.role === 'key'
      ? keyCompletions(schemaIndex, root, context, continuation)
      : valueCompletions(schemaIndex, root, context);
  return {
    isIncomplete: false,
    items: items.map((item) => ({
      ...item,
      insertText: undefined,
      textEdit: { range, newText: item.insertText ?? item.label },
    })),
  };
}

function conditionCompletions(document: TextDocument, text: string, offset: number): CompletionItem[] {
  const word = conditionWordAt(text, offset);
  const range = { start: document.positionAt(word.start), end: document.positionAt(offset) };
  return expressionWords
    .filter((entry) => entry.kind !== 'operator')
    .map((entry) => ({
      label: entry.label,
      kind:
        entry.kind === 'context'
          ? CompletionItemKind.Variable
          : entry.kind === 'function'
            ? CompletionItemKind.Function
            : CompletionItemKind.Keyword,
      detail: entry.detail,
      documentation: { kind: MarkupKind.Markdown, value: entry.description },
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: { range, newText: entry.snippet },
    }));
}

function keyCompletions(
  index: SchemaIndex,
  root: Schema,
  context: CursorContext,
  continuation: string,
): CompletionItem[] {
  const parent = schemasAt(index, root, context.path);
  const required = requiredOf(parent);
  const items: CompletionItem[] = [];
  for (const [key, schemas] of propertiesAt(index, parent)) {
    if (context.siblings.includes(key)) continue;
    items.push({
      label: key,
      kind: CompletionItemKind.Property,
      detail: required.has(key) ? 'required' : undefined,
      documentation: markdown(descriptionOf(schemas)),
      sortText: `${required.has(key) ? 0 : 1}${key}`,
      insertTextFormat: InsertTextFormat.Snippet,
      insertText: context.json
        ? context.quoted
          ? key
          : JSON.stringify(key)
        : keySnippet(index, key, schemas, continuation, { next: 1 }),
    });
  }
  if (context.json || context.siblings.length > 0) return items;
  // After `- ` in a list of objects, or on an empty line under a list key that has no item yet.
  const itemSchemas = context.startsItem ? parentItemSchemas(index, root, context) : undefined;
  const listItems = !context.startsItem && isArraySchema(parent) ? expand(index, itemsOf(parent)) : undefined;
  const entry = itemSchemas ?? (listItems !== undefined && isObjectSchema(listItems) ? listItems : undefined);
  if (entry !== undefined) {
    const name = entry.map(definitionNameOf).find((found) => found !== undefined) ?? 'item';
    const dash = itemSchemas === undefined ? '- ' : '';
    items.unshift({
      label: `${name} entry`,
      kind: CompletionItemKind.Snippet,
      detail: `a whole ${name} with its required fields`,
      documentation: markdown(descriptionOf(entry)),
      sortText: `0 ${name}`,
      insertTextFormat: InsertTextFormat.Snippet,
      insertText: dash + objectSnippet(index, entry, `${continuation}${' '.repeat(dash.length)}`, { next: 1 }, 0),
    });
  }
  return items;
}

// The schemas of the list item the cursor starts, when the list holds objects.
function parentItemSchemas(index: SchemaIndex, root: Schema, context: CursorContext): Schema[] | undefined {
  if (typeof context.path[context.path.length - 1] !== 'number') return undefined;
  const itemSchemas = schemasAt(index, root, context.path);
  return isObjectSchema(itemSchemas) ? itemSchemas : undefined;
}

function valueCompletions(index: SchemaIndex, root: Schema, context: CursorContext): CompletionItem[] {
  const schemas = schemasAt(index, root, context.path);
  const items: CompletionItem[] = choicesOf(schemas).map((choice) => ({
    label: String(choice.value),
    kind: CompletionItemKind.EnumMember,
    documentation: markdown(choice.description),
    insertText: !context.json
      ? yamlScalarText(choice.value)
      : context.quoted && typeof choice.value === 'string'
        ? choice.value
        : JSON.stringify(choice.value),
  }));
  for (const prefix of valuePrefixesOf(schemas)) {
    items.push({
      label: `${prefix}…`,
      kind: CompletionItemKind.Snippet,
      documentation: markdown(descriptionOf(schemas)),
      insertTextFormat: InsertTextFormat.Snippet,
      insertText: context.json && !context.quoted ? `"${prefix}\${1:name}"` : `${prefix}\${1:name}`,
    });
  }
  return items;
}

interface TabStops {
  next: number;
}

function keySnippet(index: SchemaIndex, key: string, schemas: Schema[], continuation: string, tabs: TabStops): string {
  return `${key}:${valueSnippet(index, schemas, continuation, tabs, 0)}`;
}

// The text after `key:` — a choice, a nested object, a list with one whole entry, or a tab stop.
function valueSnippet(
  index: SchemaIndex,
  schemas: Schema[],
  continuation: string,
  tabs: TabStops,
  depth: number,
): string {
  const choices = choicesOf(schemas);
  if (choices.length > 0) {
    return ` \${${tabs.next++}|${choices.map((choice) => escapeChoice(yamlScalarText(choice.value))).join(',')}|}`;
  }
  if (isArraySchema(schemas)) {
    const items = itemsOf(schemas);
    const itemSchemas = expand(index, items);
    if (depth < 2 && isObjectSchema(itemSchemas)) {
      const inner = `${continuation}  `;
      return `\n${inner}- ${objectSnippet(index, itemSchemas, `${inner}  `, tabs, depth + 1)}`;
    }
    return `\n${continuation}  - \${${tabs.next++}}`;
  }
  if (isObjectSchema(schemas) && depth < 2) {
    const inner = `${continuation}  `;
    return `\n${inner}${objectSnippet(index, schemas, inner, tabs, depth + 1)}`;
  }
  return ` \${${tabs.next++}}`;
}

// The required keys of an object (and its lists of objects, one level down), one per line.
function objectSnippet(
  index: SchemaIndex,
  schemas: Schema[],
  continuation: string,
  tabs: TabStops,
  depth: number,
): string {
  const required = requiredOf(schemas);
  const lines: string[] = [];
  for (const [key, sub] of propertiesAt(index, schemas)) {
    const wanted =
      required.has(key) || (depth === 0 && isArraySchema(sub) && isObjectSchema(expand(index, itemsOf(sub))));
    if (wanted) lines.push(keySnippet(index, key, sub, continuation, tabs));
  }
  if (lines.length === 0) return `\${${tabs.next++}}`;
  return lines.join(`\n${continuation}`);
}

function itemsOf(schemas: readonly Schema[]): Schema[] {
  return schemas
    .map((schema) => schema.items)
    .filter((item): item is Schema => typeof item === 'object' && item !== null);
}

function escapeChoice(text: string): string {
  return text.replace(/[\\,|$}]/g, (char) => `\\${char}`);
}

function markdown(text: string | undefined): { kind: 'markdown'; value: string } | undefined {
  return text === undefined ? undefined : { kind: MarkupKind.Markdown, value: text };
}
