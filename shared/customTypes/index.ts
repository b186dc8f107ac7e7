// Custom attestation types: the jq subset their rules are written in and the verdict of a rule set.
export { describeRuleProblem, evaluateRule, ruleProblems, ruleVerdicts, rulesHold, type RuleProblem } from './rules.ts';
export { summaryOf, type SummaryEntry, type SummaryValue } from './summary.ts';
export { parseJq } from './jq/parse.ts';
export { JqBudgetExceeded } from './jq/budget.ts';
export { BUILTINS as JQ_BUILTINS } from './jq/builtins.ts';
export { JqRuntimeError, type JqNode, type JqSyntaxError, type JqValue, type ParsedJq } from './jq/syntax.ts';
