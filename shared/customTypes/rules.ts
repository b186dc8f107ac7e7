// The rules of a custom attestation type (reference §2.3, §3.3): jq expressions over the
// attestation's `attestation_data`, all of which must hold for the attestation to be compliant.
//
// A rule holds when it produces at least one output and every output is truthy (anything but
// false and null). So `.age > 21` holds for {"age": 30}; `.items[] | .ok` holds only when every
// item is ok; a rule with no output (`empty`, `.a[]?` on a missing list) proves nothing and fails;
// a rule that raises a jq error (`.name > 1` fine, `.name.first` on a string not) fails too:
// evidence that cannot be read is not compliant.
import { JqBudgetExceeded, withinBudget } from './jq/budget.ts';
import { outputs } from './jq/evaluate.ts';
import { parseJq } from './jq/parse.ts';
import { JqRuntimeError, type JqNode, type JqValue } from './jq/syntax.ts';
import { isJson, isTruthy } from './jq/values.ts';

/** A rule the subset cannot read: its index in the type's rules, the message, and where (1-based column). */
export interface RuleProblem {
  index: number;
  message: string;
  column: number;
  start: number;
  end: number;
}

const CACHE_LIMIT = 512;
const parsed = new Map<string, ReturnType<typeof parseJq>>();

function parsedRule(rule: string): ReturnType<typeof parseJq> {
  let result = parsed.get(rule);
  if (result === undefined) {
    result = parseJq(rule);
    if (parsed.size >= CACHE_LIMIT) parsed.delete(parsed.keys().next().value!);
    parsed.set(rule, result);
  }
  return result;
}

/** Every rule that cannot be evaluated, first problem of each; empty when all can. */
export function ruleProblems(rules: readonly string[]): RuleProblem[] {
  return rules.flatMap((rule, index) => {
    const { error } = parsedRule(rule);
    return error === undefined
      ? []
      : [{ index, message: error.message, column: error.start + 1, start: error.start, end: error.end }];
  });
}

/** The problem as one line for an API error or a diagnostic: `<message> at column <n>`. */
export function describeRuleProblem(problem: RuleProblem): string {
  return `${problem.message} at column ${problem.column}`;
}

function holds(program: JqNode, input: JqValue): boolean {
  let count = 0;
  try {
    for (const output of outputs(program, input)) {
      if (!isTruthy(output)) return false;
      count += 1;
    }
  } catch (error) {
    if (error instanceof JqRuntimeError) return false;
    throw error;
  }
  return count > 0;
}

/** `work` for each expression, all under one budget sized for `data`; JqBudgetExceeded names the expression over it. */
export function eachWithinBudget<T>(
  expressions: readonly string[],
  data: JqValue,
  work: (expression: string, index: number) => T,
): T[] {
  return withinBudget(data, expressions.length, () =>
    expressions.map((expression, index) => {
      try {
        return work(expression, index);
      } catch (error) {
        if (error instanceof JqBudgetExceeded) Object.assign(error, { expression, index });
        throw error;
      }
    }),
  );
}

/**
 * Whether each rule holds for `data`, in order; a rule the subset cannot read does not hold.
 * Throws JqBudgetExceeded for a rule that costs too much on this data (jq/budget.ts).
 */
export function ruleVerdicts(rules: readonly string[], data: unknown): boolean[] {
  if (!isJson(data)) return rules.map(() => false);
  return eachWithinBudget(rules, data, (rule) => {
    const { program } = parsedRule(rule);
    return program !== undefined && holds(program, data);
  });
}

/** Whether every rule holds for `data` (no rules: true), the `customRulesPassed` of a custom attestation. */
export function rulesHold(rules: readonly string[], data: unknown): boolean {
  return ruleVerdicts(rules, data).every(Boolean);
}

/** The outputs of one rule for `data`, for tests and tooling; throws JqRuntimeError or a syntax message. */
export function evaluateRule(rule: string, data: unknown): JqValue[] {
  const { program, error } = parsedRule(rule);
  if (program === undefined) throw new SyntaxError(`${error.message} at column ${error.start + 1}`);
  if (!isJson(data)) throw new JqRuntimeError('The input is not JSON data');
  return eachWithinBudget([rule], data, () => [...outputs(program, data)])[0];
}
