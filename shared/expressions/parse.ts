// Parses a whole policy condition `${{ ... }}`. Precedence, loosest first: `or`, `and`, `not`,
// then one comparison (`== != < > <= >=`, `in`, `not in`) between values. Structural errors stop
// the parse at the first one; name errors (unknown context or function, arity, bad regex) are
// collected and parsing goes on, so the editor shows them all at once.

import type { ComparisonOperator, ConditionError, ContextPath, Expression, ParsedCondition, Span } from './syntax.ts';
import { regexProblem } from '../regex/index.ts';
import { tokenize, type Segment, type Token } from './tokens.ts';
import { CONDITION_FUNCTIONS } from './vocabulary.ts';

const OPEN = '${{';
const MAX_DEPTH = 64;

/** Thrown inside the parser to abandon it at a structural error; never escapes `parseCondition`. */
class Abandon extends Error {}

/** Parses `text`, the whole `${{ ... }}` condition. Never throws. */
export function parseCondition(text: string): ParsedCondition {
  if (typeof text !== 'string')
    return { errors: [{ message: 'A condition must be a string: ${{ <expression> }}', start: 0, end: 0 }] };
  const open = text.length - text.trimStart().length;
  if (!text.startsWith(OPEN, open)) {
    const end = Math.max(text.trimEnd().length, open);
    return {
      errors: [
        { message: 'A condition is written ${{ <expression> }}, e.g. ${{ flow.name == "runner" }}', start: open, end },
      ],
    };
  }
  const lexed = tokenize(text, open + OPEN.length);
  const errors = [...lexed.errors];
  if (!lexed.unterminated) {
    if (lexed.closeAt < 0) {
      errors.push({
        message: "'${{' is not closed; end the condition with '}}'",
        start: open,
        end: open + OPEN.length,
      });
    } else {
      const after = lexed.closeAt + 2;
      const trailingEnd = text.trimEnd().length;
      if (trailingEnd > after) {
        const start = after + (text.length - after - text.slice(after).trimStart().length);
        errors.push({ message: "Unexpected text after '}}'; a condition ends at '}}'", start, end: trailingEnd });
      }
    }
  }
  let expression: Expression | undefined;
  if (lexed.tokens.length === 0) {
    if (lexed.closeAt >= 0 && !lexed.skipped) {
      errors.push({
        message: 'Empty condition; write an expression such as flow.name == "runner"',
        start: open,
        end: lexed.closeAt + 2,
      });
    }
  } else {
    const parser = new Parser(lexed.tokens, text);
    try {
      expression = parser.parseWhole();
    } catch (error) {
      if (!(error instanceof Abandon)) throw error;
    }
    // A structural error right after skipped characters is their echo, not news.
    const found = lexed.skipped ? parser.nameErrors : [...parser.nameErrors, ...parser.structuralErrors];
    for (const error of found) if (!errors.some((known) => overlaps(known, error))) errors.push(error);
  }
  errors.sort((a, b) => a.start - b.start || a.end - b.end);
  return errors.length === 0 && expression ? { expression, errors } : { errors };
}

function overlaps(a: Span, b: Span): boolean {
  return a.start < Math.max(b.end, b.start + 1) && b.start < Math.max(a.end, a.start + 1);
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'name':
      return `'${token.segments.map((segment) => segment.text).join('.')}'`;
    case 'keyword':
      return `'${token.word}'`;
    case 'string':
      return JSON.stringify(token.value);
    case 'number':
      return `'${token.value}'`;
    case 'operator':
      return `'${token.operator}'`;
    case 'punctuation':
      return `'${token.char}'`;
  }
}

class Parser {
  readonly nameErrors: ConditionError[] = [];
  readonly structuralErrors: ConditionError[] = [];
  private at = 0;
  private depth = 0;
  private readonly tokens: Token[];
  private readonly text: string;

  constructor(tokens: Token[], text: string) {
    this.tokens = tokens;
    this.text = text;
  }

  parseWhole(): Expression {
    const expression = this.parseOr();
    const next = this.peek();
    if (next) {
      const last = this.tokens[this.tokens.length - 1];
      this.fail(
        `Unexpected ${describe(next)} after the end of the expression; join conditions with 'and' or 'or'`,
        next.start,
        last.end,
      );
    }
    return expression;
  }

  private parseOr(): Expression {
    let left = this.parseAnd();
    while (this.isKeyword('or')) {
      const operator = this.take();
      const right = this.operand(operator, () => this.parseAnd());
      left = { kind: 'logical', operator: 'or', left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private parseAnd(): Expression {
    let left = this.parseNot();
    while (this.isKeyword('and')) {
      const operator = this.take();
      const right = this.operand(operator, () => this.parseNot());
      left = { kind: 'logical', operator: 'and', left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private parseNot(): Expression {
    if (this.isKeyword('not')) {
      const operator = this.take();
      const operand = this.nested(() => this.operand(operator, () => this.parseNot()));
      return { kind: 'not', operand, start: operator.start, end: operand.end };
    }
    return this.parseComparison();
  }

  private parseComparison(): Expression {
    const left = this.parseValue();
    const comparison = this.comparisonAhead();
    if (!comparison) return left;
    this.take();
    if (comparison === 'not in') this.take();
    const operatorToken = this.tokens[this.at - 1];
    const right = this.operand(operatorToken, () => this.parseValue());
    const again = this.comparisonAhead();
    if (again) {
      const token = this.peek()!;
      this.fail(`Comparisons cannot be chained; join them with 'and'`, token.start, token.end);
    }
    if (comparison === 'in' || comparison === 'not in') {
      if (right.kind === 'literal' && typeof right.value !== 'string') {
        this.report(`'${comparison}' needs a list or a string on its right`, right);
      }
      this.checkNotList(left);
      return { kind: 'in', negated: comparison === 'not in', left, right, start: left.start, end: right.end };
    }
    this.checkNotList(left);
    this.checkNotList(right);
    return { kind: 'compare', operator: comparison, left, right, start: left.start, end: right.end };
  }

  private comparisonAhead(): ComparisonOperator | 'in' | 'not in' | undefined {
    const next = this.peek();
    if (!next) return undefined;
    if (next.kind === 'operator') return next.operator;
    if (next.kind === 'keyword' && next.word === 'in') return 'in';
    const after = this.tokens[this.at + 1];
    if (next.kind === 'keyword' && next.word === 'not' && after?.kind === 'keyword' && after.word === 'in')
      return 'not in';
    return undefined;
  }

  private parseValue(): Expression {
    const token = this.peek();
    if (!token) return this.expectedValue();
    switch (token.kind) {
      case 'string':
      case 'number':
        this.at++;
        return { kind: 'literal', value: token.value, start: token.start, end: token.end };
      case 'keyword':
        if (token.word === 'true' || token.word === 'false' || token.word === 'null') {
          this.at++;
          const value = token.word === 'null' ? null : token.word === 'true';
          return { kind: 'literal', value, start: token.start, end: token.end };
        }
        return this.fail(`Unexpected ${describe(token)}; expected a value`, token.start, token.end);
      case 'punctuation':
        if (token.char === '(') return this.parseGroup();
        if (token.char === '[') return this.parseList();
        return this.fail(`Unexpected ${describe(token)}; expected a value`, token.start, token.end);
      case 'operator':
        return this.fail(`Unexpected ${describe(token)}; expected a value before it`, token.start, token.end);
      case 'name':
        this.at++;
        if (this.isPunctuation('(')) return this.parseCall(token);
        return this.contextOf(token);
    }
  }

  private parseGroup(): Expression {
    const open = this.take();
    const inner = this.nested(() => this.operand(open, () => this.parseOr()));
    const close = this.peek();
    if (!close) return this.fail("Missing ')' to close this '('", open.start, open.end);
    if (close.kind !== 'punctuation' || close.char !== ')') {
      return this.fail(`Unexpected ${describe(close)}; expected ')' to close '('`, close.start, close.end);
    }
    this.at++;
    return { ...inner, start: open.start, end: close.end };
  }

  private parseList(): Expression {
    const open = this.take();
    const items: Expression[] = [];
    if (this.isPunctuation(']')) {
      const close = this.take();
      return { kind: 'list', items, start: open.start, end: close.end };
    }
    for (;;) {
      const item = this.nested(() => this.parseValue());
      if (item.kind === 'list') this.report('A list cannot contain lists', item);
      items.push(item);
      const next = this.peek();
      if (next?.kind === 'punctuation' && next.char === ',') {
        this.at++;
        continue;
      }
      if (next?.kind === 'punctuation' && next.char === ']') {
        this.at++;
        return { kind: 'list', items, start: open.start, end: next.end };
      }
      if (next) return this.fail(`Unexpected ${describe(next)}; expected ',' or ']' in the list`, next.start, next.end);
      return this.fail("Missing ']' to close this '['", open.start, open.end);
    }
  }

  private parseCall(nameToken: Token & { kind: 'name' }): Expression {
    const open = this.take();
    const args: Expression[] = [];
    if (!this.isPunctuation(')')) {
      for (;;) {
        args.push(this.nested(() => this.parseOr()));
        const next = this.peek();
        if (next?.kind === 'punctuation' && next.char === ',') {
          this.at++;
          continue;
        }
        if (next?.kind === 'punctuation' && next.char === ')') break;
        if (next)
          return this.fail(`Unexpected ${describe(next)}; expected ',' or ')' in the arguments`, next.start, next.end);
        return this.fail("Missing ')' to close this '('", open.start, open.end);
      }
    }
    const close = this.take();
    const span = { start: nameToken.start, end: close.end };
    const name = nameToken.segments.map((segment) => segment.text).join('.');
    const known = CONDITION_FUNCTIONS.find((fn) => fn.name === name);
    if (!known) {
      const names = CONDITION_FUNCTIONS.map((fn) => fn.name).join(' or ');
      this.report(`Unknown function '${name}'; the functions are ${names}`, nameToken);
      return { kind: 'literal', value: null, ...span };
    }
    if (args.length !== known.arity) {
      const plural = known.arity === 1 ? 'argument' : 'arguments';
      this.report(`${known.name}() takes ${known.arity} ${plural}, got ${args.length}: ${known.signature}`, span);
    } else if (known.name === 'matches') {
      this.checkPattern(args[1]);
    }
    for (const arg of args) this.checkNotList(arg);
    return { kind: 'call', name: known.name, args, ...span };
  }

  private checkPattern(pattern: Expression): void {
    if (pattern.kind !== 'literal') return;
    if (typeof pattern.value !== 'string') {
      this.report('matches() needs a string pattern as its second argument', pattern);
      return;
    }
    const problem = regexProblem(pattern.value);
    if (problem === undefined) return;
    const { start, end } = pattern;
    this.nameErrors.push({
      message: problem.message,
      start,
      end,
      ...(problem.unsupported && { unsupportedPattern: true }),
    });
  }

  private contextOf(token: Token & { kind: 'name' }): Expression {
    const span = { start: token.start, end: token.end };
    const path = this.contextPath(token.segments);
    return path ? { kind: 'context', path, ...span } : { kind: 'literal', value: null, ...span };
  }

  private contextPath(segments: Segment[]): ContextPath | undefined {
    const [scope, property, ...rest] = segments as [Segment, Segment | undefined, ...Segment[]];
    const through = (last: Segment): Span => ({ start: scope.start, end: last.end });
    if (scope.text === 'flow') {
      if (!property || property.text === '') {
        this.report("'flow' needs a property: flow.name or flow.tags.<key>", through(property ?? scope));
        return undefined;
      }
      if (property.text === 'name') return this.leaf({ scope: 'flow', property: 'name' }, 'flow.name', rest);
      if (property.text === 'tags') {
        const key = rest.map((segment) => segment.text).join('.');
        if (rest.length === 0 || rest.some((segment) => segment.text === '')) {
          this.report('flow.tags needs a key: flow.tags.<key>', through(rest[rest.length - 1] ?? property));
          return undefined;
        }
        return { scope: 'flow', property: 'tags', key };
      }
      this.report(`Unknown property '${property.text}' of flow; expected name or tags`, property);
      return undefined;
    }
    if (scope.text === 'artifact') {
      if (!property || property.text === '') {
        this.report("'artifact' needs a property: artifact.name or artifact.fingerprint", through(property ?? scope));
        return undefined;
      }
      if (property.text === 'name' || property.text === 'fingerprint') {
        return this.leaf({ scope: 'artifact', property: property.text }, `artifact.${property.text}`, rest);
      }
      this.report(`Unknown property '${property.text}' of artifact; expected name or fingerprint`, property);
      return undefined;
    }
    if (segments.length === 1) {
      this.report(
        `Unknown name '${scope.text}'; expected flow.name, flow.tags.<key>, artifact.name, artifact.fingerprint, a function call or a quoted string`,
        scope,
      );
    } else {
      this.report(`Unknown context '${scope.text}'; the contexts are flow and artifact`, scope);
    }
    return undefined;
  }

  private leaf(path: ContextPath, written: string, rest: Segment[]): ContextPath | undefined {
    if (rest.length === 0) return path;
    this.report(`${written} has no properties`, { start: rest[0].start - 1, end: rest[rest.length - 1].end });
    return undefined;
  }

  private checkNotList(expression: Expression): void {
    if (expression.kind === 'list') this.report("A list can only stand on the right of 'in'", expression);
  }

  /** Parses the operand an operator needs, or fails at the operator when there is none. */
  private operand(operator: Token, parse: () => Expression): Expression {
    if (!this.peek()) {
      const shown = this.text.slice(operator.start, operator.end);
      return this.fail(`Expected a value after '${shown}'`, operator.start, operator.end);
    }
    return parse();
  }

  private expectedValue(): never {
    const last = this.tokens[this.tokens.length - 1];
    return this.fail(`Expected a value after ${describe(last)}`, last.start, last.end);
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_DEPTH) {
      const token = this.tokens[this.at - 1];
      this.fail(`The condition is nested more than ${MAX_DEPTH} levels deep`, token.start, token.end);
    }
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private take(): Token {
    return this.tokens[this.at++];
  }

  private isKeyword(word: string): boolean {
    const token = this.peek();
    return token?.kind === 'keyword' && token.word === word;
  }

  private isPunctuation(char: string): boolean {
    const token = this.peek();
    return token?.kind === 'punctuation' && token.char === char;
  }

  private report(message: string, span: Span): void {
    this.nameErrors.push({ message, start: span.start, end: span.end });
  }

  private fail(message: string, start: number, end: number): never {
    this.structuralErrors.push({ message, start, end });
    throw new Abandon(message);
  }
}
