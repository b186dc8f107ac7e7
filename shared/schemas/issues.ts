// ajv's verdict in the product's vocabulary: one Issue per problem, at the exact node (the key
// for unknown keys, the value otherwise, the missing field's path for `required` so it is placed
// on the object that lacks it), worded as the hosted service's pydantic messages.
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { Issue, PathSegment } from '../findings.ts';
import { quotedChoice, suggestionsFor } from '../text/suggest.ts';
import { validatorFor } from './index.ts';
import type { SchemaName } from './index.ts';

/** What each kind of schema violation is called in finding codes: `<prefix>/<suffix>`. */
const suffixByKeyword: Record<string, string> = {
  required: 'missing-field',
  additionalProperties: 'unknown-key',
  type: 'wrong-type',
  pattern: 'bad-pattern',
  enum: 'bad-value',
  const: 'bad-value',
  anyOf: 'bad-value',
  format: 'bad-format',
  minLength: 'too-short',
  maxLength: 'too-long',
  minItems: 'too-few-items',
  maxItems: 'too-many-items',
  minimum: 'out-of-range',
  maximum: 'out-of-range',
  exclusiveMinimum: 'out-of-range',
  exclusiveMaximum: 'out-of-range',
};

/** The second part of every code a schema breach is reported with (shared/findingCodes.ts describes each). */
export const schemaRuleNames: readonly string[] = [
  ...new Set([...Object.values(suffixByKeyword), 'bad-key', 'invalid']),
];

/** Documents people edit get "did you mean" hints after the pydantic text; API-only bodies get the bare text. */
const hintedPrefixes = new Set(['template', 'policy']);

/** Validates `value` against a registered schema; `prefix` starts every code (`template`, `scan`…). */
export function schemaIssues(name: SchemaName, value: unknown, prefix: string): Issue[] {
  const validate = validatorFor(name);
  if (validate(value)) return [];
  return issuesFromErrors(validate.errors ?? [], value, prefix);
}

export function issuesFromErrors(errors: readonly ErrorObject[], value: unknown, prefix: string): Issue[] {
  const kept = withoutBranchNoise(errors);
  const issues: Issue[] = [];
  const seen = new Set<string>();
  for (const error of kept) {
    const issue = issueOf(error, value, prefix);
    if (issue === undefined) continue;
    const key = `${issue.code}\u0000${issue.path.join('\u0000')}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/** Keywords that say the value has the wrong shape altogether (as opposed to a flaw inside it). */
const shapeKeywords = new Set([
  'type',
  'enum',
  'const',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'anyOf',
]);

/**
 * Under `anyOf`, ajv reports every branch's failure. When one branch fits the value's shape and
 * only complains about something inside it (`X or null` given an X with a missing field), those
 * complaints are the news. When no branch fits, one message says what the value should be: a
 * plain type when the branches differ only by type, else the `anyOf` as a whole.
 */
function withoutBranchNoise(errors: readonly ErrorObject[]): ErrorObject[] {
  const dropped = new Set<number>();
  errors.forEach((error, index) => {
    if (error.keyword !== 'anyOf') return;
    const branch: number[] = [];
    for (let j = index - 1; j >= 0 && isWithin(errors[j].instancePath, error.instancePath); j--) {
      if (!dropped.has(j)) branch.push(j);
    }
    const isShape = (j: number) =>
      errors[j].instancePath === error.instancePath && shapeKeywords.has(errors[j].keyword);
    const shape = branch.filter(isShape);
    const inner = branch.filter((j) => !isShape(j));
    if (inner.length > 0) {
      for (const j of shape) dropped.add(j);
      dropped.add(index);
      return;
    }
    const typeErrors = shape.filter((j) => errors[j].keyword === 'type');
    if (typeErrors.length === shape.length && typeErrors.length > 0) {
      const kept = typeErrors.find((j) => errors[j].params.type !== 'null') ?? typeErrors[0];
      for (const j of typeErrors) if (j !== kept) dropped.add(j);
      dropped.add(index);
      return;
    }
    for (const j of branch) dropped.add(j);
  });
  return errors.filter((error, index) => !dropped.has(index) && error.keyword !== 'propertyNames');
}

function isWithin(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}

function issueOf(error: ErrorObject, value: unknown, prefix: string): Issue | undefined {
  const path = pathOf(error.instancePath, value);
  const params = error.params as Record<string, unknown>;
  const suffix = suffixByKeyword[error.keyword] ?? 'invalid';
  const code = `${prefix}/${suffix}`;
  const propertyName = (error as ErrorObject & { propertyName?: string }).propertyName;
  if (propertyName !== undefined) {
    return {
      code: `${prefix}/bad-key`,
      severity: 'error',
      message: messageOf(error),
      path: [...path, propertyName],
      target: 'key',
    };
  }
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const message = hintedPrefixes.has(prefix) ? `Field required: add '${missing}'` : 'Field required';
      return { code, severity: 'error', message, path: [...path, missing], target: 'value', data: { missing } };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const key = String(params.additionalProperty ?? params.unevaluatedProperty);
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const suggestions = suggestionsFor(key, known);
      const hint = !hintedPrefixes.has(prefix)
        ? ''
        : suggestions.length > 0
          ? ` (did you mean '${suggestions[0]}'?)`
          : known.length > 0
            ? ` (allowed: ${known.join(', ')})`
            : '';
      return {
        code,
        severity: 'error',
        message: `Extra inputs are not permitted${hint}`,
        path: [...path, key],
        target: 'key',
        data: { key, suggestions, allowed: known },
      };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).filter((item) => item !== null);
      return { code, severity: 'error', message: messageOf(error), path, target: 'value', data: { allowed } };
    }
    case 'const':
      return {
        code,
        severity: 'error',
        message: messageOf(error),
        path,
        target: 'value',
        data: { expected: params.allowedValue },
      };
    default:
      return { code, severity: 'error', message: messageOf(error), path, target: 'value' };
  }
}

const typeWords: Record<string, string> = {
  string: 'a valid string',
  integer: 'a valid integer',
  number: 'a valid number',
  boolean: 'a valid boolean',
  object: 'a valid dictionary',
  array: 'a valid list',
  null: 'None',
};

/** `1 character`, `3 characters`: pydantic's wording of a length limit. */
function counted(limit: unknown, noun: string): string {
  return `${String(limit)} ${noun}${limit === 1 ? '' : 's'}`;
}

function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const types = String(params.type)
        .split(',')
        .filter((type) => type !== 'null');
      return `Input should be ${types.map((type) => typeWords[type] ?? type).join(' or ')}`;
    }
    case 'pattern':
      return `String should match pattern '${String(params.pattern)}'`;
    case 'enum':
      return `Input should be ${quotedChoice((params.allowedValues as unknown[]).filter((item) => item !== null))}`;
    case 'const':
      return `Input should be ${quotedChoice([params.allowedValue])}`;
    case 'minLength':
      return `String should have at least ${counted(params.limit, 'character')}`;
    case 'maxLength':
      return `String should have at most ${counted(params.limit, 'character')}`;
    case 'minItems':
      return `List should have at least ${counted(params.limit, 'item')}`;
    case 'maxItems':
      return `List should have at most ${counted(params.limit, 'item')}`;
    case 'minimum':
      return `Input should be greater than or equal to ${String(params.limit)}`;
    case 'maximum':
      return `Input should be less than or equal to ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `Input should be greater than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `Input should be less than ${String(params.limit)}`;
    case 'format':
      return params.format === 'uri' || params.format === 'url'
        ? 'Input should be a valid URL'
        : `Input should be a valid ${String(params.format)}`;
    case 'anyOf':
      return anyOfMessage(error);
    default:
      return error.message ?? 'Input is not valid';
  }
}

/** One sentence for "one of these values or a string of this shape". */
function anyOfMessage(error: ErrorObject): string {
  const branches = (error.schema as { enum?: unknown[]; pattern?: string; const?: unknown }[] | undefined) ?? [];
  const parts: string[] = [];
  for (const branch of branches) {
    if (branch.enum) parts.push(quotedChoice(branch.enum));
    else if (branch.const !== undefined) parts.push(quotedChoice([branch.const]));
    else if (branch.pattern) parts.push(`a string matching '${branch.pattern}'`);
  }
  return parts.length > 0 ? `Input should be ${parts.join(' or ')}` : 'Input does not match any allowed form';
}

/** ajv's JSON pointer as path segments; indexes of arrays become numbers. */
export function pathOf(pointer: string, root: unknown): PathSegment[] {
  if (pointer === '') return [];
  const path: PathSegment[] = [];
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      const index = Number(key);
      path.push(index);
      node = node[index];
    } else {
      path.push(key);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return path;
}
