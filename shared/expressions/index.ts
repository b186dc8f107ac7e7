// The policy condition language `${{ ... }}`: parser, evaluator and vocabulary.

export type {
  ComparisonOperator,
  ConditionContext,
  ConditionError,
  ContextPath,
  Expression,
  FunctionName,
  LiteralValue,
  ParsedCondition,
  Span,
} from './syntax.ts';
export { parseCondition } from './parse.ts';
export { evaluateCondition } from './evaluate.ts';
export {
  CONDITION_CONTEXTS,
  CONDITION_FUNCTIONS,
  CONDITION_KEYWORDS,
  CONDITION_OPERATORS,
  type ContextDescription,
  type FunctionDescription,
  type KeywordDescription,
} from './vocabulary.ts';
