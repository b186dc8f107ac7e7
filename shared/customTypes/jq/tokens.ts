// Tokens of the jq subset. The lexer also recognises jq syntax the subset leaves out (variables,
// formats, assignment, `..`, `?//`, string interpolation) so the parser can name it precisely.
import type { JqSyntaxError } from './syntax.ts';

export type TokenKind =
  | 'number'
  | 'string'
  | 'identifier'
  /** `.name`: the text holds the name. */
  | 'field'
  | 'variable'
  | 'format'
  | 'punctuation'
  | 'end';

export interface Token {
  kind: TokenKind;
  /** The name, the operator, the decoded string, or the number's source text. */
  text: string;
  start: number;
  end: number;
}

/** Longest first so `//` wins over `/` and `|=` over `|`. */
const PUNCTUATION = [
  '?//',
  '//=',
  '|=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '==',
  '!=',
  '<=',
  '>=',
  '//',
  '..',
  '.',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '|',
  ',',
  ':',
  ';',
  '?',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
];

const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_]/;
const NUMBER = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

export class LexError extends Error {
  readonly problem: JqSyntaxError;
  constructor(problem: JqSyntaxError) {
    super(problem.message);
    this.problem = problem;
  }
}

function identifierEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length && IDENTIFIER_PART.test(text[at])) at += 1;
  return at;
}

/** The string literal starting at the `"` at `start`, decoded, and the offset after it. */
function readString(text: string, start: number): { value: string; end: number } {
  let value = '';
  let at = start + 1;
  while (at < text.length) {
    const char = text[at];
    if (char === '"') return { value, end: at + 1 };
    if (char !== '\\') {
      value += char;
      at += 1;
      continue;
    }
    const escape = text[at + 1];
    if (escape === '(')
      throw new LexError({ message: 'String interpolation is not supported in rules', start: at, end: at + 2 });
    if (escape === 'u') {
      const hex = text.slice(at + 2, at + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex))
        throw new LexError({ message: 'Invalid \\u escape in string', start: at, end: Math.min(at + 6, text.length) });
      value += String.fromCharCode(parseInt(hex, 16));
      at += 6;
      continue;
    }
    const decoded = escape === undefined ? undefined : ESCAPES[escape];
    if (decoded === undefined)
      throw new LexError({
        message: `Invalid escape '\\${escape ?? ''}' in string`,
        start: at,
        end: Math.min(at + 2, text.length),
      });
    value += decoded;
    at += 2;
  }
  throw new LexError({ message: 'Unterminated string', start, end: text.length });
}

/** The rule's tokens, ending with an `end` token; throws LexError on text that is not jq. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    if (/\s/.test(char)) {
      at += 1;
      continue;
    }
    if (char === '#') {
      while (at < text.length && text[at] !== '\n') at += 1;
      continue;
    }
    const number = NUMBER.exec(text.slice(at));
    if (number !== null) {
      tokens.push({ kind: 'number', text: number[0], start: at, end: at + number[0].length });
      at += number[0].length;
      continue;
    }
    if (char === '"') {
      const { value, end } = readString(text, at);
      tokens.push({ kind: 'string', text: value, start: at, end });
      at = end;
      continue;
    }
    if (IDENTIFIER_START.test(char)) {
      const end = identifierEnd(text, at);
      tokens.push({ kind: 'identifier', text: text.slice(at, end), start: at, end });
      at = end;
      continue;
    }
    if ((char === '.' || char === '$' || char === '@') && IDENTIFIER_START.test(text[at + 1] ?? '')) {
      const end = identifierEnd(text, at + 1);
      const kind = char === '.' ? 'field' : char === '$' ? 'variable' : 'format';
      tokens.push({ kind, text: text.slice(at + 1, end), start: at, end });
      at = end;
      continue;
    }
    const operator = PUNCTUATION.find((candidate) => text.startsWith(candidate, at));
    if (operator === undefined)
      throw new LexError({ message: `Unexpected character '${char}'`, start: at, end: at + 1 });
    tokens.push({ kind: 'punctuation', text: operator, start: at, end: at + operator.length });
    at += operator.length;
  }
  tokens.push({ kind: 'end', text: '', start: text.length, end: text.length });
  return tokens;
}
