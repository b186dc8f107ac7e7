// What the jq subset refuses and how it says so: jq syntax the subset leaves out is named (a type
// whose rule the server cannot evaluate is refused when it is created rather than passing
// silently), anything else is unexpected, each with the offsets of the token at fault.
import type { JqSyntaxError } from './syntax.ts';
import type { Token } from './tokens.ts';

/** jq's comparisons; any other operator ending in `=` is an assignment, which the subset refuses. */
export const COMPARISONS: readonly string[] = ['==', '!=', '<', '<=', '>', '>='];

/** The jq keywords the subset leaves out, each with what a rule's author is told. */
export const UNSUPPORTED_KEYWORDS: Readonly<Record<string, string>> = {
  reduce: "'reduce' is not supported in rules",
  foreach: "'foreach' is not supported in rules",
  def: 'Function definitions are not supported in rules',
  try: "'try' is not supported in rules; use the '?' suffix",
  label: "'label' is not supported in rules",
  import: 'Modules are not supported in rules',
  include: 'Modules are not supported in rules',
  as: "'as' bindings are not supported in rules",
  __loc__: "'__loc__' is not supported in rules",
};

/** Thrown by the parser at the first thing it cannot read; parseJq answers its problem. */
export class ParseError extends Error {
  readonly problem: JqSyntaxError;
  constructor(problem: JqSyntaxError) {
    super(problem.message);
    this.problem = problem;
  }
}

/** The token as a message names it. */
export function describe(token: Token): string {
  if (token.kind === 'end') return 'end of rule';
  if (token.kind === 'string') return `string ${JSON.stringify(token.text)}`;
  if (token.kind === 'field') return `'.${token.text}'`;
  return `'${token.text}'`;
}

/** Why `token` cannot stand where it is: jq syntax we leave out is named, anything else is unexpected. */
export function unexpected(token: Token): ParseError {
  const at = { start: token.start, end: token.end };
  if (token.kind === 'variable')
    return new ParseError({ message: `Variables ('$${token.text}') are not supported in rules`, ...at });
  if (token.kind === 'format')
    return new ParseError({ message: `Formats ('@${token.text}') are not supported in rules`, ...at });
  if (token.kind === 'identifier' && UNSUPPORTED_KEYWORDS[token.text] !== undefined)
    return new ParseError({ message: UNSUPPORTED_KEYWORDS[token.text], ...at });
  if (token.kind === 'punctuation') {
    if (token.text === '..')
      return new ParseError({ message: "Recursive descent '..' is not supported in rules", ...at });
    if (token.text === '?//')
      return new ParseError({ message: "Destructuring alternatives '?//' are not supported in rules", ...at });
    if (token.text === '=' || (token.text.endsWith('=') && !COMPARISONS.includes(token.text))) {
      return new ParseError({ message: `Assignment ('${token.text}') is not supported in rules`, ...at });
    }
  }
  return new ParseError({
    message: token.kind === 'end' ? 'Unexpected end of rule' : `Unexpected ${describe(token)}`,
    ...at,
  });
}
