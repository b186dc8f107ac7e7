// The summary of a custom attestation (reference §2.15): each `{name, expression}` of the type is a
// jq expression over the attestation's `attestation_data`, and its value is what the attestation
// shows under that name: the one output, a list when there are several, null when there is none
// or the data cannot be read that way (a summary informs; it never fails the attestation).
import { evaluateRule } from './rules.ts';
import { JqRuntimeError, type JqValue } from './jq/syntax.ts';

export interface SummaryEntry {
  name: string;
  expression: string;
}

export interface SummaryValue {
  name: string;
  value: JqValue;
}

export function summaryOf(entries: readonly SummaryEntry[], data: unknown): SummaryValue[] {
  return entries.map(({ name, expression }) => {
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
