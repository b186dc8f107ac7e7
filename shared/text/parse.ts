// Text → plain value, syntax findings, and a way to place any later finding in the text.
// Never throws: binary junk, deep nesting, alias bombs and custom tags all become findings.
import { visit } from 'yaml';
import type { Document } from 'yaml';
import type { Finding, Issue, PathSegment, TextRange } from '../findings.ts';
import { limitCodes, limits, tooDeepMessage } from '../limits.ts';
import { jsonSyntaxErrorOf } from './json-syntax.ts';
import { jsonLocatorOf } from './jsonLocate.ts';
import { locatorOf, type Locator } from './locate.ts';
import { lineEndAt } from './positions.ts';
import { nestsDeeperThan, valueAt } from './values.ts';
import { parseYamlTree, YamlLimitError } from './yamlTree.ts';

export { yamlParseOptions } from './yamlTree.ts';

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
  /** A locator for these paths (a JSON text is read once for all of them). */
  locatorFor(paths: readonly (readonly PathSegment[])[]): Locator;
}

/** Past this many, more syntax findings of one kind only bury the first, which matters most. */
const maxSyntaxFindings = 100;

/** `tree`: the text's YAML tree when the caller already holds it (the language server keeps one per document). */
export function parseText(format: TextFormat, text: string, tree?: Document.Parsed): ParsedText {
  return format === 'json' ? parseJson(text) : parseYaml(text, tree);
}

export function parseYaml(text: string, tree?: Document.Parsed): ParsedText {
  const syntax: Finding[] = [];
  let doc: Document | undefined;
  let value: unknown;
  try {
    doc = tree ?? parseYamlTree(text);
    for (const error of doc.errors.slice(0, maxSyntaxFindings)) {
      const pos =
        error.code === 'MISSING_CHAR' && /quote/i.test(error.message)
          ? (openingQuoteOf(doc, error.pos) ?? error.pos)
          : error.pos;
      if (error instanceof YamlLimitError)
        syntax.push(syntaxFinding(error.limitCode, 'error', error.message, pos, text));
      // The composer's own guard: a stack overflow while composing (a thread with a small stack).
      else if (error.code === 'RESOURCE_EXHAUSTION')
        syntax.push(syntaxFinding(limitCodes.tooDeep, 'error', tooDeepMessage(limits.yamlDepth), pos, text));
      else syntax.push(syntaxFinding('yaml/syntax', 'error', error.message, pos, text));
    }
    for (const warning of doc.warnings.slice(0, maxSyntaxFindings))
      syntax.push(syntaxFinding('yaml/syntax', 'warning', warning.message, warning.pos, text));
    value = doc.toJS({ maxAliasCount: limits.aliasExpansions });
  } catch (error) {
    value = undefined;
    const code = error instanceof RangeError ? limitCodes.tooDeep : 'yaml/syntax';
    syntax.push(syntaxFinding(code, 'error', failureMessage(error), doc && aliasRange(doc, error), text));
  }
  const placed = doc && locatorOf(doc, text);
  const locator: Locator = (path, target) => (placed ? safeRange(() => placed(path, target), text) : firstLine(text));
  return {
    format: 'yaml',
    text,
    value,
    syntax,
    broken: syntax.some((finding) => finding.severity === 'error'),
    locate: locator,
    locatorFor: () => locator,
  };
}

export function parseJson(text: string): ParsedText {
  let value: unknown;
  const syntax: Finding[] = [];
  try {
    value = JSON.parse(text);
    if (nestsDeeperThan(value, limits.jsonDepth)) {
      value = undefined;
      const message = tooDeepMessage(limits.jsonDepth);
      syntax.push({
        code: limitCodes.tooDeep,
        severity: 'error',
        message,
        path: [],
        target: 'value',
        range: firstLine(text),
      });
    }
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
      range: where ? atContent(text, where.start, where.end) : firstLine(text),
    });
  }
  // A text JSON.parse refused is placed by its syntax error alone, never by path.
  const locatorFor = (paths: readonly (readonly PathSegment[])[]): Locator => {
    const placed = value === undefined ? undefined : jsonLocatorOf(text, paths);
    return (path, target) => (placed ? safeRange(() => placed(path, target), text) : firstLine(text));
  };
  return {
    format: 'json',
    text,
    value,
    syntax,
    broken: syntax.length > 0,
    locate: (path, target) => locatorFor([path])(path, target),
    locatorFor,
  };
}

/** Places rule issues in the text and sorts syntax findings and issues by position. */
export function placeIssues(parsed: ParsedText, issues: readonly Issue[]): Finding[] {
  const findings = [...parsed.syntax];
  const locate = parsed.locatorFor(issues.map((issue) => issue.path));
  for (const issue of issues) findings.push({ ...issue, range: rangeWithinValue(parsed, locate, issue) });
  return findings.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
}

/**
 * An issue about part of a string (`data.valueSpan`, offsets into the string) is narrowed to that
 * part when the text spells the string literally (plain or quoted without escapes).
 */
function rangeWithinValue(parsed: ParsedText, locate: Locator, issue: Issue): TextRange {
  const range = locate(issue.path, issue.target);
  const span = issue.data?.valueSpan as TextRange | undefined;
  const value = valueAt(parsed.value, issue.path);
  if (span === undefined || typeof value !== 'string') return range;
  const raw = parsed.text.slice(range.start, range.end);
  const offset = raw === value ? 0 : raw.length === value.length + 2 && raw.slice(1, -1) === value ? 1 : -1;
  if (offset < 0) return range;
  const start = range.start + offset + Math.min(Math.max(span.start, 0), value.length);
  const end = range.start + offset + Math.min(Math.max(span.end, span.start, 0), value.length);
  return { start, end };
}

/**
 * A string whose closing quote is missing runs to the end of the text, where `yaml` reports it;
 * the place to fix is where the string opens.
 */
function openingQuoteOf(doc: Document, pos: [number, number]): [number, number] | undefined {
  let found: [number, number] | undefined;
  visit(doc, {
    Scalar(_, node) {
      if ((node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && node.range && node.range[1] >= pos[0]) {
        found = [node.range[0], node.range[0] + 1];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** Where an alias problem is: the unresolved alias, or the first alias of an alias bomb. */
function aliasRange(doc: Document, error: unknown): [number, number] | undefined {
  if (!(error instanceof ReferenceError)) return undefined;
  const unresolved = /^Unresolved alias/.test(error.message);
  let found: [number, number] | undefined;
  try {
    visit(doc, {
      Alias(_, node) {
        if (node.range && (!unresolved || node.resolve(doc) === undefined)) {
          found = [node.range[0], node.range[1]];
          return visit.BREAK;
        }
        return undefined;
      },
    });
  } catch {
    return undefined;
  }
  return found;
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

/** A range at the very end (input ended early) moves onto the last character with content. */
function atContent(text: string, start: number, end: number): TextRange {
  const contentEnd = text.trimEnd().length;
  if (contentEnd === 0) return { start: 0, end: 0 };
  if (start >= contentEnd) return { start: contentEnd - 1, end: Math.max(end, contentEnd) };
  return { start, end };
}

function firstLine(text: string): TextRange {
  return { start: 0, end: lineEndAt(text, 0) };
}

function syntaxFinding(
  code: string,
  severity: 'error' | 'warning',
  message: string,
  pos: [number, number] | undefined,
  text: string,
): Finding {
  const contentEnd = text.trimEnd().length;
  // An error at the very end (a missing quote or bracket) is shown on the last line with content.
  const start =
    pos !== undefined && pos[0] >= contentEnd && contentEnd > 0 ? contentEnd - 1 : Math.min(pos?.[0] ?? 0, text.length);
  const end = pos === undefined ? lineEndAt(text, start) : Math.min(Math.max(pos[1], start), text.length);
  return { code, severity, message, path: [], target: 'value', range: { start, end } };
}

function failureMessage(error: unknown): string {
  if (error instanceof RangeError) return tooDeepMessage(limits.yamlDepth);
  if (error instanceof ReferenceError && /^Unresolved alias/.test(error.message)) {
    return `${error.message.replace(/ \(.*\)/, '')}: define the anchor (&name) before the alias (*name)`;
  }
  if (error instanceof ReferenceError && /alias/i.test(error.message)) {
    return `The document expands more than ${limits.aliasExpansions} aliases; remove the alias chain`;
  }
  return `The document cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}
