// The parsed form of a policy condition `${{ ... }}`. Every node keeps its offsets into the
// condition text so the editor can hover, highlight and point errors at the exact column.

/** Zero-based offsets into the condition text, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

export interface ConditionError extends Span {
  message: string;
  /**
   * A `matches()` pattern that is valid JavaScript but that the linear-time engine cannot run
   * (shared/regex/): unlike other errors, refused where the policy is stored.
   */
  unsupportedPattern?: true;
}

export type LiteralValue = string | number | boolean | null;

export type ComparisonOperator = '==' | '!=' | '<' | '>' | '<=' | '>=';

export type FunctionName = 'exists' | 'matches';

/** Where a context reads from: `flow.name`, `flow.tags.<key>`, `artifact.name`, `artifact.fingerprint`. */
export type ContextPath =
  | { readonly scope: 'flow'; readonly property: 'name' }
  | { readonly scope: 'flow'; readonly property: 'tags'; readonly key: string }
  | { readonly scope: 'artifact'; readonly property: 'name' | 'fingerprint' };

export type Expression =
  | (Span & { kind: 'literal'; value: LiteralValue })
  | (Span & { kind: 'list'; items: Expression[] })
  | (Span & { kind: 'context'; path: ContextPath })
  | (Span & { kind: 'call'; name: FunctionName; args: Expression[] })
  | (Span & { kind: 'not'; operand: Expression })
  | (Span & { kind: 'logical'; operator: 'and' | 'or'; left: Expression; right: Expression })
  | (Span & { kind: 'compare'; operator: ComparisonOperator; left: Expression; right: Expression })
  | (Span & { kind: 'in'; negated: boolean; left: Expression; right: Expression });

export interface ParsedCondition {
  /** Present exactly when `errors` is empty. */
  expression?: Expression;
  errors: ConditionError[];
}

/** What a condition can read. A missing flow, tag or artifact field reads as null. */
export interface ConditionContext {
  flow?: { name?: string | null; tags?: Readonly<Record<string, string | null | undefined>> | null } | null;
  artifact?: { name?: string | null; fingerprint?: string | null } | null;
}
