// The summary of a custom attestation (reference §2.15): each `{name, expression}` of the type is a
// jq expression over the attestation's `attestation_data`, and its value is what the attestation
// shows under that name: the one output, a list when there are several, null when there is none
// or the data cannot be read that way (a summary informs; it never fails the attestation, unless
// it costs more than the evaluation budget, jq/budget.ts).
import { eachWithinBudget, evaluateRule } from './rules.ts';
import { isJson } from './jq/values.ts';
import { JqRuntimeError, type JqValue } from './jq/syntax.ts';

export interface SummaryEntry {
  name: string;
  expression: string;
}

export interface SummaryValue {
  name: string;
  value: JqValue;
}

/** The summary's values; throws JqBudgetExceeded for an expression that costs too much on this data. */
export function summaryOf(entries: readonly SummaryEntry[], data: unknown): SummaryValue[] {
  if (!isJson(data)) return entries.map(({ name }) => ({ name, value: null }));
  const expressions = entries.map((entry) => entry.expression);
  return eachWithinBudget(expressions, data, (expression, index) => {
    const { name } = entries[index];
    let outputs: JqValue[];
    try {
      outputs = evaluateRule(expression, data);
    } catch (error) {
      if (error instanceof JqRuntimeError || error instanceof SyntaxError) return { name, value: null };
      throw error;
    }
    return { name, value: outputs.length === 0 ? null : outputs.length === 1 ? outputs[0]! : outputs };
  });
}
