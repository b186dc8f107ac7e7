// Custom attestation types (reference §2.15): attestation_data is checked against the type's JSON
// Schema, compiled once per type version, and compliance is every jq rule of the type holding
// (jq itself, compiled to WebAssembly).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { issuesFromErrors } from '../../../shared/schemas/issues.ts';
import type { Issue } from '../../../shared/findings.ts';
import type { CustomType } from '../store/customTypes.ts';

const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, validateSchema: true });
const compiled = new Map<string, ValidateFunction>();

/** Whether `schema` is a JSON Schema ajv can use; the error text otherwise. */
export function schemaProblem(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return 'Input should be a valid dictionary';
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
  return issuesFromErrors(validate.errors ?? [], data, 'custom').map((issue) => ({ ...issue, path: ['attestation_data', ...issue.path] }));
}

/** jq-wasm, loaded on first use: most servers never see a custom type, and startup stays quick. */
let jqModule: Promise<typeof import('jq-wasm')> | undefined;
function jqRuntime(): Promise<typeof import('jq-wasm')> {
  jqModule ??= import('jq-wasm');
  return jqModule;
}

/** jq's answer for one rule: every output must be `true`; an error is a failed rule. */
async function ruleHolds(rule: string, data: unknown): Promise<boolean> {
  try {
    const jq = await jqRuntime();
    const outputs = (await jq.raw(JSON.stringify(data ?? null), rule, ['-c'])).split('\n').filter((line) => line.trim() !== '');
    return outputs.length > 0 && outputs.every((line) => line.trim() === 'true');
  } catch {
    return false;
  }
}

/** Whether every jq rule of the type holds for the attestation data (no rules: true). */
export async function customRulesPassed(type: CustomType, data: unknown): Promise<boolean> {
  for (const rule of type.evaluator?.rules ?? []) {
    if (!(await ruleHolds(rule, data))) return false;
  }
  return true;
}

/** A rule jq cannot compile, with jq's message; undefined when all compile. */
export async function ruleSyntaxProblem(rules: readonly string[]): Promise<{ index: number; message: string } | undefined> {
  for (const [index, rule] of rules.entries()) {
    const jq = await jqRuntime();
    try {
      await jq.raw('null', rule, ['-c']);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/compile error|syntax error/.test(message)) return { index, message: message.replace(/^Failed to execute JSON query: /, '').split('\n')[0]! };
    }
  }
  return undefined;
}
