// The shared core's findings as the API's field errors (spec §Errors: `{errors: {<field>: <message>},
// message}`): which findings refuse a document, the first one per field with the rejected input
// echoed, and the status they call for. Request bodies (http/requestBodies.ts), templates, policies
// and attestations all answer through it, so one document refused anywhere reads the same.
import type { Issue } from '../../shared/findings.ts';
import { fieldPath } from '../../shared/findings.ts';
import { isLimitFinding, isSizeLimitFinding, limits, moreText } from '../../shared/limits.ts';
import { refusesUpload } from '../../shared/verdicts.ts';
import { valueAt } from '../../shared/text/values.ts';
import { withInput, type FieldErrors } from './errors.ts';

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
