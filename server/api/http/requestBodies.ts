// Request bodies are checked by the shared core (`checkBody`), the same rules the editor uses;
// routes name a body schema and get its issues as the API's field errors. The schemas also go
// into the OpenAPI document.
import type { Issue } from '../../../shared/findings.ts';
import { fieldPath } from '../../../shared/findings.ts';
import { isLimitFinding, isSizeLimitFinding, limits, moreText } from '../../../shared/limits.ts';
import { reportSchemaByType } from '../../../shared/reports/check.ts';
import { checkBody } from '../../../shared/schemas/checkBody.ts';
import { refusesUpload } from '../../../shared/verdicts.ts';
import { bodySchemas, schemas, type BodyOf, type BodySchemaName } from '../../../shared/schemas/index.ts';
import { valueAt } from '../../../shared/text/values.ts';
import { invalid, withInput, type ApiError, type FieldErrors } from '../errors.ts';

/**
 * The input a message echoes: the rejected value; for a missing field, the object that lacks it
 * as pydantic does (so an external URL entry without `href` echoes its fingerprint), except at
 * the top level, where the service shows `None`.
 */
function echoedInput(issue: Issue, value: unknown, rootInput: unknown): unknown {
  // Past a limit, the input is what is too large (or too deep) to repeat.
  if (isLimitFinding(issue)) return '…';
  if (!issue.code.endsWith('/missing-field')) return issue.path.length === 0 ? rootInput : valueAt(value, issue.path);
  return issue.path.length > 1 ? valueAt(value, issue.path.slice(0, -1)) : undefined;
}

/** The key of the `errors` entry that counts the fields past the first `limits.reportedFindings`. */
export const MORE_ERRORS_KEY = '…';

/**
 * Issues (or the shared core's findings) as `errors` entries: first issue per field, the rejected
 * input echoed; an issue of the whole value is keyed `emptyKey` and echoes `rootInput` (a
 * template's text rather than what it parsed to). The first `limits.reportedFindings` fields are
 * listed; one more entry, keyed `…`, counts the rest.
 */
export function fieldErrorsOf(
  issues: readonly Issue[],
  value: unknown,
  emptyKey = 'body',
  rootInput: unknown = value,
): FieldErrors {
  const errors: FieldErrors = {};
  const unlisted = new Set<string>();
  let listed = 0;
  for (const issue of issues) {
    if (!refusesUpload(issue)) continue;
    const key = fieldPath(issue.path) || emptyKey;
    if (key in errors) continue;
    if (listed < limits.reportedFindings) {
      errors[key] = withInput(issue.message, echoedInput(issue, value, rootInput));
      listed += 1;
    } else unlisted.add(key);
  }
  if (unlisted.size > 0) errors[MORE_ERRORS_KEY] = moreText(listed + unlisted.size, listed, 'fields with errors');
  return errors;
}

/** The status a document's refusing findings call for: 413 when one is a size limit's, else 400. */
export function refusalStatusOf(findings: readonly Issue[]): 400 | 413 {
  return findings.some((finding) => refusesUpload(finding) && isSizeLimitFinding(finding)) ? 413 : 400;
}

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
