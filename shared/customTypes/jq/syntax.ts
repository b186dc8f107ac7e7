// The jq subset that custom attestation types' rules are written in: its syntax tree and errors.
// Offsets are 0-based UTF-16 positions into the rule text; messages give 1-based columns.

export type JqValue = null | boolean | number | string | JqValue[] | { [key: string]: JqValue };

export type ArithmeticOperator = '+' | '-' | '*' | '/' | '%';
export type ComparisonOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type JqNode =
  | { kind: 'identity' }
  | { kind: 'literal'; value: JqValue }
  /**
   * `target[index]`, `target.name` and `target."name"` (the name as a string literal). `optional`
   * is jq's `?` after a path step: that step yields nothing where it would fail; errors of `target`
   * itself still count (`.a.b?` fails when `.` is a number, yields nothing when `.a` is).
   */
  | { kind: 'index'; target: JqNode; index: JqNode; optional: boolean }
  | { kind: 'slice'; target: JqNode; from: JqNode | undefined; to: JqNode | undefined; optional: boolean }
  | { kind: 'iterate'; target: JqNode; optional: boolean }
  /** `?` after any other term (`(.a | tonumber)?`): errors of `body` end its outputs instead of failing. */
  | { kind: 'try'; body: JqNode }
  | { kind: 'pipe'; left: JqNode; right: JqNode }
  | { kind: 'comma'; left: JqNode; right: JqNode }
  | { kind: 'alternative'; left: JqNode; right: JqNode }
  | { kind: 'and' | 'or'; left: JqNode; right: JqNode }
  | { kind: 'arithmetic'; operator: ArithmeticOperator; left: JqNode; right: JqNode }
  | { kind: 'comparison'; operator: ComparisonOperator; left: JqNode; right: JqNode }
  | { kind: 'negate'; operand: JqNode }
  | { kind: 'array'; body: JqNode | undefined }
  | { kind: 'object'; entries: Array<{ key: JqNode; value: JqNode }> }
  | { kind: 'if'; branches: Array<{ condition: JqNode; then: JqNode }>; otherwise: JqNode | undefined }
  | { kind: 'call'; name: string; args: JqNode[] };

/** A rule the subset cannot read: what is wrong and where (`end` exclusive). */
export interface JqSyntaxError {
  message: string;
  start: number;
  end: number;
}

export type ParsedJq = { program: JqNode; error?: undefined } | { program?: undefined; error: JqSyntaxError };

/** An error raised while a rule runs (jq's runtime errors: indexing a number, adding a string to an object, ...). */
export class JqRuntimeError extends Error {
  override name = 'JqRuntimeError';
}
