// Custom attestation types (reference §2.15): attestation_data is checked against the type's JSON
// Schema, compiled once per type version, and compliance is every jq rule of the type holding,
// evaluated by the shared jq subset (shared/customTypes/), which refuses a rule it cannot evaluate
// when the type is created.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { issuesFromErrors } from '../../../shared/schemas/issues.ts';
import type { Issue } from '../../../shared/findings.ts';
import {
  describeRuleProblem,
  ruleProblems,
  rulesHold,
  summaryOf,
  type SummaryValue,
} from '../../../shared/customTypes/index.ts';
import { notFound, withInput } from '../errors.ts';
import type { CustomType } from '../store/customTypes.ts';
import type { Store } from '../store/index.ts';
import type { Org } from '../store/orgs.ts';

const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, validateSchema: true });
const compiled = new Map<string, ValidateFunction>();

/** Whether `schema` is a JSON Schema ajv can use; the error text otherwise. */
export function schemaProblem(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return 'Input should be a valid dictionary';
  try {
    ajv.compile(schema as Record<string, unknown>);
    return undefined;
  } catch (error) {
    return `Not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function validatorOf(type: CustomType): ValidateFunction {
  const key = `${type.orgId}\u0000${type.name}\u0000${type.version}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = ajv.compile(type.schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** Issues of `data` against the type's schema, with paths under `attestation_data`. */
export function customDataIssues(type: CustomType, data: unknown): Issue[] {
  const validate = validatorOf(type);
  if (validate(data)) return [];
  return issuesFromErrors(validate.errors ?? [], data, 'custom').map((issue) => ({
    ...issue,
    path: ['attestation_data', ...issue.path],
  }));
}

/** Whether every jq rule of the type holds for the attestation data (no rules: true). */
export function customRulesPassed(type: CustomType, data: unknown): boolean {
  return rulesHold(type.evaluator?.rules ?? [], data);
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

/** The values the type's summary expressions give for the attestation data (none without a summary). */
export function customSummary(type: CustomType, data: unknown): SummaryValue[] {
  return summaryOf(type.summary ?? [], data);
}

/** The type an attestation's `type_name` names: `name` (latest version) or `name@vN`; 404 with the service's messages otherwise. */
export async function customTypeNamed(store: Store, org: Org, typeName: string): Promise<CustomType> {
  const versioned = /^(.+)@v(\d+)$/.exec(typeName);
  const name = versioned?.[1] ?? typeName;
  const latest = await store.customTypes.latest(org.id, name);
  if (latest === undefined) throw notFound(`Custom attestation type '${name}' does not exist for org '${org.name}'`);
  if (versioned === null) return latest;
  const type = await store.customTypes.version(org.id, name, Number(versioned[2]));
  if (type === undefined)
    throw notFound(`version ${versioned[2]} does not exist for custom attestation type '${name}'`);
  return type;
}
