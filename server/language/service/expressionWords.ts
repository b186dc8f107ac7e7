// The `${{ }}` condition around the cursor and the words of its language, for completion and hover.
import {
  CONDITION_CONTEXTS,
  CONDITION_FUNCTIONS,
  CONDITION_KEYWORDS,
  CONDITION_OPERATORS,
} from '../../../shared/expressions/index.ts';

export interface ExpressionWord {
  label: string;
  kind: 'context' | 'function' | 'keyword' | 'operator';
  /** Snippet inserted by completion. */
  snippet: string;
  detail: string;
  description: string;
}

/** Every word a condition may use, from the shared vocabulary. */
export const expressionWords: readonly ExpressionWord[] = [
  ...CONDITION_CONTEXTS.map((context): ExpressionWord => {
    const dynamic = context.path.indexOf('<');
    return {
      label: context.path,
      kind: 'context',
      snippet: dynamic < 0 ? context.path : `${context.path.slice(0, dynamic)}\${1:key}`,
      detail: 'context',
      description: context.description,
    };
  }),
  ...CONDITION_FUNCTIONS.map((fn): ExpressionWord => ({
    label: fn.name,
    kind: 'function',
    snippet: `${fn.name}(${Array.from({ length: fn.arity }, (_, i) => `\${${i + 1}}`).join(', ')})`,
    detail: fn.signature,
    description: fn.description,
  })),
  ...CONDITION_KEYWORDS.map((word): ExpressionWord => ({
    label: word.keyword,
    kind: 'keyword',
    snippet: word.keyword,
    detail: 'keyword',
    description: word.description,
  })),
  ...CONDITION_OPERATORS.map((word): ExpressionWord => ({
    label: word.keyword,
    kind: 'operator',
    snippet: word.keyword,
    detail: 'operator',
    description: word.description,
  })),
];

/** Whether `offset` lies inside a `${{ ... }}` of its line (after the opening, before the closing). */
export function isInsideCondition(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const open = before.lastIndexOf('${{');
  return open >= 0 && !before.slice(open + 3).includes('}}');
}

/** The dotted word (`flow.tags.team`) that touches `offset`, with its span. */
export function conditionWordAt(text: string, offset: number): { word: string; start: number; end: number } {
  let start = offset;
  while (start > 0 && /[\w.]/.test(text[start - 1])) start--;
  let end = offset;
  while (end < text.length && /[\w.]/.test(text[end])) end++;
  return { word: text.slice(start, end), start, end };
}

const operatorsLongestFirst = CONDITION_OPERATORS.map((entry) => entry.keyword).sort((a, b) => b.length - a.length);

/** The operator (`==`, `<=` ...) under `offset`, if any. */
export function operatorAt(text: string, offset: number): string | undefined {
  for (const op of operatorsLongestFirst) {
    for (let start = offset - op.length + 1; start <= offset; start++) {
      if (start >= 0 && text.startsWith(op, start)) return op;
    }
  }
  return undefined;
}

/** The vocabulary entry a written word means (`flow.tags.team` means `flow.tags.<key>`). */
export function expressionWordFor(word: string): ExpressionWord | undefined {
  return expressionWords.find((entry) => {
    if (entry.label === word) return true;
    const dynamic = entry.label.indexOf('<');
    return dynamic > 0 && word.startsWith(entry.label.slice(0, dynamic)) && word.length > dynamic;
  });
}
