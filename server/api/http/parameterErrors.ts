// Fastify validates path and query parameters against the route schemas with ajv; this turns
// ajv's verdicts into the hosted service's pydantic wording and field keys (`query.per_page`).
import type { ErrorObject } from 'ajv';
import { fieldPath, type PathSegment } from '../../../shared/findings.ts';
import { invalid, withInput, type ApiError, type FieldErrors } from '../errors.ts';

const contextPrefix: Record<string, string> = {
  querystring: 'query',
  params: 'path',
  headers: 'header',
  body: '',
};

function pointerSegments(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

function quotedChoices(values: readonly unknown[]): string {
  const quoted = values.map((value) => `'${String(value)}'`);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

function typeMessage(expected: string, data: unknown): string {
  const fromString = typeof data === 'string';
  switch (expected) {
    case 'integer':
      return fromString
        ? 'Input should be a valid integer, unable to parse string as an integer'
        : 'Input should be a valid integer';
    case 'number':
      return fromString
        ? 'Input should be a valid number, unable to parse string as a number'
        : 'Input should be a valid number';
    case 'boolean':
      return 'Input should be a valid boolean, unable to interpret input';
    case 'object':
      return 'Input should be a valid dictionary';
    case 'array':
      return 'Input should be a valid list';
    case 'string':
      return 'Input should be a valid string';
    default:
      return `Input should be a valid ${expected}`;
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The pydantic message for one ajv error, and the path and input it is about. */
function pydanticError(error: ErrorObject): { path: PathSegment[]; message: string; input: unknown } {
  const path = pointerSegments(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const data = error.data;
  switch (error.keyword) {
    case 'required':
      return { path: [...path, String(params.missingProperty)], message: 'Field required', input: undefined };
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const value = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[extra] : undefined;
      return { path: [...path, extra], message: 'Extra inputs are not permitted', input: value };
    }
    case 'type':
      return { path, message: typeMessage(String(params.type).split(',')[0], data), input: data };
    case 'minimum':
      return { path, message: `Input should be greater than or equal to ${String(params.limit)}`, input: data };
    case 'exclusiveMinimum':
      return { path, message: `Input should be greater than ${String(params.limit)}`, input: data };
    case 'maximum':
      return { path, message: `Input should be less than or equal to ${String(params.limit)}`, input: data };
    case 'exclusiveMaximum':
      return { path, message: `Input should be less than ${String(params.limit)}`, input: data };
    case 'pattern':
      return { path, message: `String should match pattern '${String(params.pattern)}'`, input: data };
    case 'enum':
      return { path, message: `Input should be ${quotedChoices(params.allowedValues as unknown[])}`, input: data };
    case 'const':
      return { path, message: `Input should be ${quotedChoices([params.allowedValue])}`, input: data };
    case 'minLength':
      return { path, message: `String should have at least ${plural(Number(params.limit), 'character')}`, input: data };
    case 'maxLength':
      return { path, message: `String should have at most ${plural(Number(params.limit), 'character')}`, input: data };
    case 'minItems':
      return {
        path,
        message: `List should have at least ${plural(Number(params.limit), 'item')} after validation`,
        input: data,
      };
    case 'maxItems':
      return {
        path,
        message: `List should have at most ${plural(Number(params.limit), 'item')} after validation`,
        input: data,
      };
    default:
      return { path, message: error.message ?? 'Input is not valid', input: data };
  }
}

/** One `errors` object from ajv errors of one request part (first error per field wins). */
function fieldErrorsFromAjv(errors: readonly ErrorObject[], context: string | undefined): FieldErrors {
  const prefix = contextPrefix[context ?? 'body'] ?? '';
  const out: FieldErrors = {};
  for (const error of errors) {
    const { path, message, input } = pydanticError(error);
    const key = [prefix, fieldPath(path)].filter((part) => part !== '').join('.') || 'body';
    if (!(key in out)) out[key] = withInput(message, input);
  }
  return out;
}

export function validationFailure(errors: readonly ErrorObject[], context: string | undefined): ApiError {
  return invalid(fieldErrorsFromAjv(errors, context));
}
