// Environment policies from their text, through the shared core: the value, or the findings as
// the API's field errors (each with its line and column).
import { fieldPath, type Finding } from '../../../shared/findings.ts';
import { limits, moreText } from '../../../shared/limits.ts';
import { lineIndexOf } from '../../../shared/text/positions.ts';
import { validateText } from '../../../shared/validate.ts';
import { refused } from '../errors.ts';
import { MORE_ERRORS_KEY, refusalStatusOf } from '../fieldErrors.ts';

/**
 * The policy text's value, once the shared core (YAML syntax, schema, cross-field rules, `${{ }}`
 * conditions) finds nothing that refuses it; otherwise a 400 (413 over a size limit) whose errors
 * are keyed by field path under `field` (`field` alone for the document as a whole), each with its
 * line and column, the first `limits.reportedFindings` of them. An upload refuses what
 * shared/verdicts.ts says (an invalid condition is stored, as the service stores it); a dry-run
 * refuses every error, since its verdict would fail closed on it.
 */
export function policyValueOrInvalid(text: string, field: string, refuses: (finding: Finding) => boolean): unknown {
  const { value, findings } = validateText('env-policy', text);
  const errors = findings.filter(refuses);
  if (errors.length === 0) return value;
  const lines = lineIndexOf(text);
  const out: Record<string, string> = {};
  const unlisted = new Set<string>();
  let listed = 0;
  for (const finding of errors) {
    const key = finding.path.length === 0 ? field : `${field}.${fieldPath(finding.path)}`;
    if (key in out) continue;
    if (listed === limits.reportedFindings) {
      unlisted.add(key);
      continue;
    }
    const { line, character } = lines.positionAt(finding.range.start);
    out[key] = `${finding.message} (line ${line + 1}, column ${character + 1})`;
    listed += 1;
  }
  if (unlisted.size > 0) out[MORE_ERRORS_KEY] = moreText(listed + unlisted.size, listed, 'fields with errors');
  throw refused(out, refusalStatusOf(errors));
}
