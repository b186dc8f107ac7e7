// Splits the inside of `${{ ... }}` into tokens. Common slips from other languages (`=`, `&&`,
// `||`, `!`) become the intended token plus an error, so one typo yields one message.

import type { ComparisonOperator, ConditionError, Span } from './syntax.ts';

export interface Segment extends Span {
  text: string;
}

export type Token =
  | (Span & { kind: 'name'; segments: Segment[] })
  | (Span & { kind: 'keyword'; word: 'and' | 'or' | 'not' | 'in' | 'true' | 'false' | 'null' })
  | (Span & { kind: 'string'; value: string; terminated: boolean })
  | (Span & { kind: 'number'; value: number })
  | (Span & { kind: 'operator'; operator: ComparisonOperator })
  | (Span & { kind: 'punctuation'; char: '(' | ')' | '[' | ']' | ',' });

export interface Tokens {
  tokens: Token[];
  errors: ConditionError[];
  /** Offset of the closing `}}`, or -1 when the text ends without one. */
  closeAt: number;
  /** An unterminated string swallowed the rest of the text (and with it any `}}`). */
  unterminated: boolean;
  /** Characters that start no token were dropped (each with its error). */
  skipped: boolean;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'true', 'false', 'null']);
const NAME_START = /[A-Za-z_]/;
const NAME_PART = /[A-Za-z0-9_-]/;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };

/** Tokens of `text` from offset `from` up to the first `}}` outside a string. */
export function tokenize(text: string, from: number): Tokens {
  const tokens: Token[] = [];
  const errors: ConditionError[] = [];
  let skipped = false;
  let at = from;
  while (at < text.length) {
    const char = text[at];
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    const pair = text.slice(at, at + 2);
    if (pair === '}}') return { tokens, errors, closeAt: at, unterminated: false, skipped };
    if (pair === '==' || pair === '!=' || pair === '<=' || pair === '>=') {
      tokens.push({ kind: 'operator', operator: pair, start: at, end: at + 2 });
      at += 2;
      continue;
    }
    if (pair === '&&' || pair === '||') {
      const word = pair === '&&' ? 'and' : 'or';
      errors.push({ message: `Unexpected '${pair}'; write '${word}'`, start: at, end: at + 2 });
      tokens.push({ kind: 'keyword', word, start: at, end: at + 2 });
      at += 2;
      continue;
    }
    if (char === '<' || char === '>') {
      tokens.push({ kind: 'operator', operator: char, start: at, end: at + 1 });
      at++;
      continue;
    }
    if (char === '=') {
      errors.push({ message: "Unexpected '='; write '==' to compare", start: at, end: at + 1 });
      tokens.push({ kind: 'operator', operator: '==', start: at, end: at + 1 });
      at++;
      continue;
    }
    if (char === '!') {
      errors.push({ message: "Unexpected '!'; write 'not'", start: at, end: at + 1 });
      tokens.push({ kind: 'keyword', word: 'not', start: at, end: at + 1 });
      at++;
      continue;
    }
    if (char === '(' || char === ')' || char === '[' || char === ']' || char === ',') {
      tokens.push({ kind: 'punctuation', char, start: at, end: at + 1 });
      at++;
      continue;
    }
    if (char === '"' || char === "'") {
      const token = readString(text, at);
      tokens.push(token);
      if (!token.terminated) {
        const end = unterminatedEnd(text, at);
        errors.push({ message: `Unterminated string; close it with ${char}`, start: at, end });
        return { tokens, errors, closeAt: -1, unterminated: true, skipped };
      }
      at = token.end;
      continue;
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number) {
      tokens.push({ kind: 'number', value: Number(number[0]), start: at, end: at + number[0].length });
      at += number[0].length;
      continue;
    }
    if (NAME_START.test(char)) {
      const token = readName(text, at);
      tokens.push(token);
      at = token.end;
      continue;
    }
    const shown = char === '}' ? "'}' (a condition ends with '}}')" : `character '${char}'`;
    errors.push({ message: `Unexpected ${shown}`, start: at, end: at + 1 });
    skipped = true;
    at++;
  }
  return { tokens, errors, closeAt: -1, unterminated: false, skipped };
}

function readString(text: string, start: number): Token & { kind: 'string' } {
  const quote = text[start];
  let value = '';
  let at = start + 1;
  while (at < text.length) {
    const char = text[at];
    if (char === quote) return { kind: 'string', value, terminated: true, start, end: at + 1 };
    if (char === '\\' && at + 1 < text.length) {
      const next = text[at + 1];
      // Unknown escapes stay as written so regex patterns like "\d+" mean what they say.
      value += ESCAPES[next] ?? `\\${next}`;
      at += 2;
      continue;
    }
    value += char;
    at++;
  }
  return { kind: 'string', value, terminated: false, start, end: text.length };
}

/** An unterminated string is flagged up to the closing `}}` it swallowed, or to the end. */
function unterminatedEnd(text: string, start: number): number {
  const trimmed = text.trimEnd();
  return trimmed.endsWith('}}') && trimmed.length - 2 > start + 1
    ? trimmed.length - 2
    : Math.max(trimmed.length, start + 1);
}

function readName(text: string, start: number): Token {
  const segments: Segment[] = [];
  let at = start;
  for (;;) {
    const segmentStart = at;
    while (at < text.length && NAME_PART.test(text[at])) at++;
    segments.push({ text: text.slice(segmentStart, at), start: segmentStart, end: at });
    if (text[at] !== '.') break;
    at++;
  }
  const only = segments.length === 1 ? segments[0].text : '';
  if (KEYWORDS.has(only)) {
    return { kind: 'keyword', word: only as 'and' | 'or' | 'not' | 'in' | 'true' | 'false' | 'null', start, end: at };
  }
  return { kind: 'name', segments, start, end: at };
}
