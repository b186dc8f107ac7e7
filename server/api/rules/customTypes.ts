// Custom attestation types (reference §2.15): attestation_data is checked against the type's JSON
// Schema, each type version compiled apart from every other (customTypeSchemas.ts), and compliance
// is every jq rule of the type holding, evaluated by the shared jq subset (shared/customTypes/),
// which refuses a rule it cannot evaluate when the type is created.
import { issuesFromErrors } from '../../../shared/schemas/issues.ts';
import type { Issue } from '../../../shared/findings.ts';
import {
  describeRuleProblem,
  JqBudgetExceeded,
  ruleProblems,
  rulesHold,
  summaryOf,
  type SummaryValue,
} from '../../../shared/customTypes/index.ts';
import { badRequest, withInput } from '../errors.ts';
import { customTypeNotFound, customTypeVersionNotFound } from '../notFound.ts';
import { SchemaBudgetExceeded, schemaValidator, validateWithinBudget } from './customTypeSchemas.ts';
import type { CustomType } from '../store/customTypes.ts';
import type { Store } from '../store/index.ts';
import type { Org } from '../store/orgs.ts';

/** Issues of `data` against the type's schema, with paths under `attestation_data`; 400 when checking costs more than the budget. */
export function customDataIssues(type: CustomType, data: unknown): Issue[] {
  const validate = schemaValidator(type.schema);
  let valid: boolean;
  try {
    valid = validateWithinBudget(validate, data);
  } catch (error) {
    if (!(error instanceof SchemaBudgetExceeded)) throw error;
    throw badRequest(
      `The schema of custom attestation type '${type.name}' (version ${type.version}) ${error.message}; attestation_data was not checked`,
    );
  }
  if (valid) return [];
  return issuesFromErrors(validate.errors ?? [], data, 'custom').map((issue) => ({
    ...issue,
    path: ['attestation_data', ...issue.path],
  }));
}

/** `evaluate()`, a 400 naming the expression when it costs more than the evaluation budget on this data. */
function withinBudget<T>(type: CustomType, what: (index: number) => string, evaluate: () => T): T {
  try {
    return evaluate();
  } catch (error) {
    if (!(error instanceof JqBudgetExceeded)) throw error;
    throw badRequest(
      `The ${what(error.index)} of custom attestation type '${type.name}' (version ${type.version}) ${error.message}: ${JSON.stringify(error.expression)}`,
    );
  }
}

/** Whether every jq rule of the type holds for the attestation data (no rules: true); 400 for a rule over budget. */
export function customRulesPassed(type: CustomType, data: unknown): boolean {
  return withinBudget(
    type,
    (index) => `rule evaluator.rules[${index}]`,
    () => rulesHold(type.evaluator?.rules ?? [], data),
  );
}

/** Each rule the shared jq subset cannot evaluate, as an `errors` entry keyed by its field path. */
export function ruleErrors(rules: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    ruleProblems(rules).map((problem) => [
      `evaluator.rules[${problem.index}]`,
      withInput(describeRuleProblem(problem), rules[problem.index]),
    ]),
  );
}

/** Each summary expression the jq subset cannot evaluate, keyed by its field path, as rules are. */
export function summaryErrors(summary: ReadonlyArray<{ expression: string }>): Record<string, string> {
  const expressions = summary.map((entry) => entry.expression);
  return Object.fromEntries(
    ruleProblems(expressions).map((problem) => [
      `summary[${problem.index}].expression`,
      withInput(describeRuleProblem(problem), expressions[problem.index]),
    ]),
  );
}

/** The values the type's summary expressions give for the attestation data (none without a summary); 400 for one over budget. */
export function customSummary(type: CustomType, data: unknown): SummaryValue[] {
  return withinBudget(
    type,
    (index) => `summary expression summary[${index}].expression`,
    () => summaryOf(type.summary ?? [], data),
  );
}

/** The type an attestation's `type_name` names: `name` (latest version) or `name@vN`; 404 with the service's messages otherwise. */
export async function customTypeNamed(store: Store, org: Org, typeName: string): Promise<CustomType> {
  const versioned = /^(.+)@v(\d+)$/.exec(typeName);
  const name = versioned?.[1] ?? typeName;
  const latest = await store.customTypes.latest(org.id, name);
  if (latest === undefined) throw customTypeNotFound(org.name, name);
  if (versioned === null) return latest;
  const type = await store.customTypes.version(org.id, name, Number(versioned[2]));
  if (type === undefined) throw customTypeVersionNotFound(name, versioned[2]);
  return type;
}
