// Parser of the jq subset, by precedence climbing over jq's own precedence (lowest first):
// `|`, `,`, `//`, `or`, `and`, comparisons (not chainable), `+ -`, `* / %`, unary `-`, postfix
// paths and `?`. jq syntax outside the subset is rejected with a message naming it (refusals.ts),
// and a rule nested too deeply with its limit (depth.ts).
import { builtinProblem } from './builtins.ts';
import { regexProblem } from './regex.ts';
import type { ArithmeticOperator, ComparisonOperator, JqNode, JqValue, ParsedJq } from './syntax.ts';
import { LexError, tokenize, type Token } from './tokens.ts';
import { MAX_RULE_DEPTH, treeDepth } from './depth.ts';
import { COMPARISONS, describe, ParseError, unexpected, UNSUPPORTED_KEYWORDS } from './refusals.ts';

const RESERVED = new Set([
  'and',
  'or',
  'then',
  'elif',
  'else',
  'end',
  'catch',
  'if',
  ...Object.keys(UNSUPPORTED_KEYWORDS),
]);

class Parser {
  private readonly tokens: Token[];
  private position = 0;
  private depth = 0;

  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  program(): JqNode {
    const program = this.pipe();
    if (this.peek().kind !== 'end') throw unexpected(this.peek());
    if (treeDepth(program) > MAX_RULE_DEPTH) throw this.tooDeep(this.tokens[0]);
    return program;
  }

  private tooDeep(token: Token): ParseError {
    return new ParseError({
      message: `Rule nests too deeply (more than ${MAX_RULE_DEPTH} levels)`,
      start: token.start,
      end: token.end,
    });
  }

  /** `parse()` one level deeper, refused past MAX_RULE_DEPTH before the stack can run out. */
  private nested(parse: () => JqNode): JqNode {
    if (this.depth >= MAX_RULE_DEPTH) throw this.tooDeep(this.peek());
    this.depth += 1;
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.position + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.position += 1;
    return token;
  }

  private isPunctuation(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === 'punctuation' && token.text === text;
  }

  private isKeyword(text: string): boolean {
    const token = this.peek();
    return token.kind === 'identifier' && token.text === text;
  }

  private expect(text: string): Token {
    const token = this.peek();
    if ((token.kind === 'punctuation' || token.kind === 'identifier') && token.text === text) return this.next();
    const found = token.kind === 'end' ? 'the rule ended' : `found ${describe(token)}`;
    throw new ParseError({ message: `Expected '${text}' but ${found}`, start: token.start, end: token.end });
  }

  private pipe(): JqNode {
    return this.nested(() => {
      const left = this.comma();
      if (!this.isPunctuation('|')) return left;
      this.next();
      return { kind: 'pipe', left, right: this.pipe() };
    });
  }

  private comma(): JqNode {
    let left = this.alternative();
    while (this.isPunctuation(',')) {
      this.next();
      left = { kind: 'comma', left, right: this.alternative() };
    }
    return left;
  }

  private alternative(): JqNode {
    const left = this.or();
    if (!this.isPunctuation('//')) return left;
    this.next();
    return { kind: 'alternative', left, right: this.alternative() };
  }

  private or(): JqNode {
    let left = this.and();
    while (this.isKeyword('or')) {
      this.next();
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): JqNode {
    let left = this.comparison();
    while (this.isKeyword('and')) {
      this.next();
      left = { kind: 'and', left, right: this.comparison() };
    }
    return left;
  }

  private comparison(): JqNode {
    const left = this.additive();
    const operator = this.peek();
    if (operator.kind !== 'punctuation' || !COMPARISONS.includes(operator.text)) return left;
    this.next();
    const right = this.additive();
    const chained = this.peek();
    if (chained.kind === 'punctuation' && COMPARISONS.includes(chained.text)) {
      throw new ParseError({
        message: `Comparisons cannot be chained: wrap one side in parentheses before '${chained.text}'`,
        start: chained.start,
        end: chained.end,
      });
    }
    return { kind: 'comparison', operator: operator.text as ComparisonOperator, left, right };
  }

  private additive(): JqNode {
    let left = this.multiplicative();
    while (this.isPunctuation('+') || this.isPunctuation('-')) {
      const operator = this.next().text as ArithmeticOperator;
      left = { kind: 'arithmetic', operator, left, right: this.multiplicative() };
    }
    return left;
  }

  private multiplicative(): JqNode {
    let left = this.unary();
    while (this.isPunctuation('*') || this.isPunctuation('/') || this.isPunctuation('%')) {
      const operator = this.next().text as ArithmeticOperator;
      left = { kind: 'arithmetic', operator, left, right: this.unary() };
    }
    return left;
  }

  private unary(): JqNode {
    if (!this.isPunctuation('-')) return this.postfix();
    this.next();
    return this.nested(() => ({ kind: 'negate', operand: this.unary() }));
  }

  private postfix(): JqNode {
    const parenthesised = this.isPunctuation('(');
    let node = this.primary();
    /** Whether `node` ends in a path step written here, which a `?` makes optional by itself. */
    let step = !parenthesised && node.kind === 'index';
    for (;;) {
      const token = this.peek();
      if (token.kind === 'field') {
        this.next();
        node = { kind: 'index', target: node, index: { kind: 'literal', value: token.text }, optional: false };
      } else if (this.isPunctuation('.') && this.peek(1).kind === 'string') {
        this.next();
        node = { kind: 'index', target: node, index: { kind: 'literal', value: this.next().text }, optional: false };
      } else if (this.isPunctuation('.') && this.isPunctuation('[', 1)) {
        this.next();
      } else if (this.isPunctuation('[')) {
        node = this.bracketSuffix(node);
      } else if (this.isPunctuation('?')) {
        this.next();
        node =
          step && (node.kind === 'index' || node.kind === 'slice' || node.kind === 'iterate')
            ? { ...node, optional: true }
            : { kind: 'try', body: node };
        step = false;
        continue;
      } else {
        return node;
      }
      step = true;
    }
  }

  /** `[]`, `[e]`, `[e:]`, `[:e]`, `[e:e]` after `target`. */
  private bracketSuffix(target: JqNode): JqNode {
    this.expect('[');
    if (this.isPunctuation(']')) {
      this.next();
      return { kind: 'iterate', target, optional: false };
    }
    const from = this.isPunctuation(':') ? undefined : this.pipe();
    if (!this.isPunctuation(':')) {
      this.expect(']');
      return { kind: 'index', target, index: from!, optional: false };
    }
    this.next();
    const to = this.isPunctuation(']') ? undefined : this.pipe();
    if (from === undefined && to === undefined) {
      const token = this.peek();
      throw new ParseError({ message: 'A slice needs a start or an end', start: token.start, end: token.end });
    }
    this.expect(']');
    return { kind: 'slice', target, from, to, optional: false };
  }

  private primary(): JqNode {
    const token = this.peek();
    switch (token.kind) {
      case 'number':
        this.next();
        return { kind: 'literal', value: Number(token.text) };
      case 'string':
        this.next();
        return { kind: 'literal', value: token.text };
      case 'field':
        this.next();
        return {
          kind: 'index',
          target: { kind: 'identity' },
          index: { kind: 'literal', value: token.text },
          optional: false,
        };
      case 'identifier':
        return this.word();
      case 'punctuation':
        return this.bracketed(token);
      default:
        throw unexpected(token);
    }
  }

  private bracketed(token: Token): JqNode {
    switch (token.text) {
      case '.':
        this.next();
        if (this.peek().kind === 'string')
          return {
            kind: 'index',
            target: { kind: 'identity' },
            index: { kind: 'literal', value: this.next().text },
            optional: false,
          };
        return { kind: 'identity' };
      case '(': {
        this.next();
        const inner = this.pipe();
        this.expect(')');
        return inner;
      }
      case '[': {
        this.next();
        if (this.isPunctuation(']')) {
          this.next();
          return { kind: 'array', body: undefined };
        }
        const body = this.pipe();
        this.expect(']');
        return { kind: 'array', body };
      }
      case '{':
        return this.object();
      default:
        throw unexpected(token);
    }
  }

  /** Literals, `if`, and builtin calls; other words are reserved or unknown functions. */
  private word(): JqNode {
    const token = this.next();
    if (token.text === 'null' || token.text === 'true' || token.text === 'false')
      return { kind: 'literal', value: JSON.parse(token.text) as JqValue };
    if (token.text === 'if') return this.conditional();
    if (RESERVED.has(token.text)) throw unexpected(token);
    const args: JqNode[] = [];
    const argStarts: number[] = [];
    if (this.isPunctuation('(')) {
      this.next();
      for (;;) {
        argStarts.push(this.peek().start);
        args.push(this.pipe());
        if (!this.isPunctuation(';')) break;
        this.next();
      }
      this.expect(')');
    }
    const problem = builtinProblem(token.text, args.length);
    if (problem !== undefined) throw new ParseError({ message: problem, start: token.start, end: token.end });
    if (token.text === 'test') {
      const message = regexProblem(literalString(args[0]), literalString(args[1]));
      if (message !== undefined) throw new ParseError({ message, start: argStarts[0], end: this.peek(-1).end });
    }
    return { kind: 'call', name: token.text, args };
  }

  private conditional(): JqNode {
    const branches: Array<{ condition: JqNode; then: JqNode }> = [];
    for (;;) {
      const condition = this.pipe();
      this.expect('then');
      branches.push({ condition, then: this.pipe() });
      if (!this.isKeyword('elif')) break;
      this.next();
    }
    let otherwise: JqNode | undefined;
    if (this.isKeyword('else')) {
      this.next();
      otherwise = this.pipe();
    }
    this.expect('end');
    return { kind: 'if', branches, otherwise };
  }

  private object(): JqNode {
    this.expect('{');
    const entries: Array<{ key: JqNode; value: JqNode }> = [];
    while (!this.isPunctuation('}')) {
      entries.push(this.objectEntry());
      if (!this.isPunctuation(',')) break;
      this.next();
    }
    if (!this.isPunctuation('}')) {
      const token = this.peek();
      if (token.kind === 'punctuation' && token.text !== ',' && token.text !== '}' && entries.length > 0) {
        throw new ParseError({
          message: `Unexpected '${token.text}': wrap an object value that uses operators in parentheses`,
          start: token.start,
          end: token.end,
        });
      }
    }
    this.expect('}');
    return { kind: 'object', entries };
  }

  private objectEntry(): { key: JqNode; value: JqNode } {
    const token = this.peek();
    let key: JqNode;
    if (token.kind === 'identifier' || token.kind === 'string') {
      this.next();
      key = { kind: 'literal', value: token.text };
    } else if (this.isPunctuation('(')) {
      this.next();
      key = this.pipe();
      this.expect(')');
    } else if (token.kind === 'variable') {
      throw unexpected(token);
    } else {
      throw new ParseError({
        message: 'Object keys must be names, strings or parenthesised expressions',
        start: token.start,
        end: token.end,
      });
    }
    if (!this.isPunctuation(':')) {
      if (key.kind !== 'literal') throw unexpected(this.peek());
      return { key, value: { kind: 'index', target: { kind: 'identity' }, index: key, optional: false } };
    }
    this.next();
    return { key, value: this.objectValue() };
  }

  /** jq's object values: a postfix term or negation, optionally piped (`{a: .b | length}`). */
  private objectValue(): JqNode {
    return this.nested(() => {
      const left: JqNode = this.isPunctuation('-')
        ? (this.next(), { kind: 'negate', operand: this.postfix() })
        : this.postfix();
      if (!this.isPunctuation('|')) return left;
      this.next();
      return { kind: 'pipe', left, right: this.objectValue() };
    });
  }
}

/** A string literal argument, checked when the rule is read; other arguments are checked as the rule runs. */
function literalString(node: JqNode | undefined): string | undefined {
  return node?.kind === 'literal' && typeof node.value === 'string' ? node.value : undefined;
}

/** The rule's syntax tree, or the first thing in it the subset cannot read. */
export function parseJq(text: string): ParsedJq {
  try {
    return { program: new Parser(tokenize(text)).program() };
  } catch (error) {
    if (error instanceof LexError || error instanceof ParseError) return { error: error.problem };
    throw error;
  }
}
