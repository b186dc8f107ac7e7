// Text → plain value, syntax findings, and a way to place any later finding in the text.
// Never throws: binary junk, deep nesting, alias bombs and custom tags all become findings.
import { parseDocument } from 'yaml';
import type { Document } from 'yaml';
import type { Finding, Issue, PathSegment, TextRange } from '../findings.ts';
import { jsonSyntaxErrorOf } from './json-syntax.ts';
import { rangeOf } from './locate.ts';
import { lineEndAt } from './positions.ts';

export type TextFormat = 'yaml' | 'json';

export interface ParsedText {
  format: TextFormat;
  text: string;
  /** The plain value; `undefined` when the text has no usable value. */
  value: unknown;
  /** Syntax errors and warnings, already placed. */
  syntax: Finding[];
  /** Whether any syntax finding is an error (then rules are not run on the value). */
  broken: boolean;
  locate(path: readonly PathSegment[], target: 'key' | 'value'): TextRange;
}

/** Aliases a document may expand; enough for real templates, far below an alias bomb. */
const maxAliasCount = 1000;

export function parseText(format: TextFormat, text: string): ParsedText {
  return format === 'json' ? parseJson(text) : parseYaml(text);
}

export function parseYaml(text: string): ParsedText {
  const syntax: Finding[] = [];
  let doc: Document | undefined;
  let value: unknown;
  try {
    doc = parseDocument(text, { prettyErrors: false });
    for (const error of doc.errors) syntax.push(syntaxFinding('yaml/syntax', 'error', error.message, error.pos, text));
    for (const warning of doc.warnings) syntax.push(syntaxFinding('yaml/syntax', 'warning', warning.message, warning.pos, text));
    value = doc.toJS({ maxAliasCount });
  } catch (error) {
    value = undefined;
    syntax.push(syntaxFinding('yaml/syntax', 'error', failureMessage(error), undefined, text));
  }
  const located = doc;
  return {
    format: 'yaml',
    text,
    value,
    syntax,
    broken: syntax.some((finding) => finding.severity === 'error'),
    locate: (path, target) => (located ? safeRange(() => rangeOf(located, text, path, target), text) : firstLine(text)),
  };
}

export function parseJson(text: string): ParsedText {
  let value: unknown;
  const syntax: Finding[] = [];
  try {
    value = JSON.parse(text);
  } catch (error) {
    value = undefined;
    const where = safeJsonError(text);
    const message = where?.message ?? failureMessage(error);
    syntax.push({
      code: 'json/syntax',
      severity: 'error',
      message,
      path: [],
      target: 'value',
      range: where ? { start: where.start, end: where.end } : firstLine(text),
    });
  }
  let doc: Document | undefined;
  const locate = (path: readonly PathSegment[], target: 'key' | 'value'): TextRange =>
    safeRange(() => {
      doc ??= parseDocument(text, { prettyErrors: false, uniqueKeys: false });
      return rangeOf(doc, text, path, target);
    }, text);
  return { format: 'json', text, value, syntax, broken: syntax.length > 0, locate };
}

/** Places rule issues in the text and sorts syntax findings and issues by position. */
export function placeIssues(parsed: ParsedText, issues: readonly Issue[]): Finding[] {
  const findings = [...parsed.syntax];
  for (const issue of issues) findings.push({ ...issue, range: parsed.locate(issue.path, issue.target) });
  return findings.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
}

function safeJsonError(text: string) {
  try {
    return jsonSyntaxErrorOf(text);
  } catch {
    return undefined;
  }
}

function safeRange(place: () => TextRange, text: string): TextRange {
  try {
    return place();
  } catch {
    return firstLine(text);
  }
}

function firstLine(text: string): TextRange {
  return { start: 0, end: lineEndAt(text, 0) };
}

function syntaxFinding(code: string, severity: 'error' | 'warning', message: string, pos: [number, number] | undefined, text: string): Finding {
  const start = Math.min(pos?.[0] ?? 0, text.length);
  const end = pos === undefined ? lineEndAt(text, start) : Math.min(Math.max(pos[1], start), text.length);
  return { code, severity, message, path: [], target: 'value', range: { start, end } };
}

function failureMessage(error: unknown): string {
  if (error instanceof RangeError) return 'The document is nested too deeply or expands too many aliases to be read';
  if (error instanceof ReferenceError && /alias/i.test(error.message)) {
    return `The document expands more than ${maxAliasCount} aliases; remove the alias chain`;
  }
  return `The document cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}
