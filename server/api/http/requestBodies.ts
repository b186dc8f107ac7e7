// Request bodies are checked by the shared core (`checkBody`), the same rules the editor uses;
// routes name a body schema and get its issues as the API's field errors. The schemas also go
// into the OpenAPI document.
import { reportSchemaByType } from '../../../shared/reports/check.ts';
import { checkBody } from '../../../shared/schemas/checkBody.ts';
import { bodySchemas, schemas, type BodyOf, type BodySchemaName } from '../../../shared/schemas/index.ts';
import { invalid, type ApiError } from '../errors.ts';
import { fieldErrorsOf } from '../fieldErrors.ts';

/** The body's field errors under a schema, or undefined when it is valid. */
export function bodyFailure(name: BodySchemaName, value: unknown, emptyKey = 'body'): ApiError | undefined {
  const errors = fieldErrorsOf(checkBody(name, value), value, emptyKey);
  return Object.keys(errors).length === 0 ? undefined : invalid(errors);
}

/** The body, checked; throws the 400 otherwise. */
export function checkedBody<N extends BodySchemaName>(name: N, value: unknown, emptyKey = 'body'): BodyOf<N> {
  const failure = bodyFailure(name, value, emptyKey);
  if (failure !== undefined) throw failure;
  return value as BodyOf<N>;
}

/** The schema of a body, for a route's `schema.body` (validated through `checkBody`, documented in OpenAPI). */
export function bodySchema<N extends BodySchemaName>(name: N): (typeof bodySchemas)[N] {
  return bodySchemas[name];
}

const bodyNameById = new Map<string, BodySchemaName>(
  Object.entries(bodySchemas).map(([name, schema]) => [schema.$id, name as BodySchemaName]),
);

/** The body schema name of a route schema, if it is one of the shared body schemas. */
export function bodySchemaNameOf(schema: unknown): BodySchemaName | undefined {
  const id = (schema as { $id?: unknown } | null)?.$id;
  return typeof id === 'string' ? bodyNameById.get(id) : undefined;
}

/** Every shared schema the OpenAPI document refers to (bodies, their shared definitions, attestation payloads). */
export const documentedSchemas: readonly Record<string, unknown>[] = [
  schemas.common,
  schemas['scan-attestation'],
  schemas.attestation,
  schemas['flow-template'],
  ...Object.values(reportSchemaByType).map((name) => schemas[name]),
  ...Object.values(bodySchemas),
] as Record<string, unknown>[];
