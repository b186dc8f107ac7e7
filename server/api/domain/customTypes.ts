// Custom attestation types (reference §2.15): attestation_data is checked against the type's JSON
// Schema, compiled once per type version.
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
