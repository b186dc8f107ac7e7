// Environment policies from their text, through the shared core: the value, or the findings as
// the API's field errors (each with its line and column).
import { fieldPath, type Finding } from '../../../shared/findings.ts';
import { lineIndexOf } from '../../../shared/text/positions.ts';
import { validateText } from '../../../shared/validate.ts';
import { invalid } from '../errors.ts';

/**
 * The policy text's value, once the shared core (YAML syntax, schema, cross-field rules, `${{ }}`
 * conditions) finds nothing that `refuses` it; otherwise a 400 whose errors are keyed by field path
 * under `field` (`field` alone for the document as a whole), each with its line and column. An
 * upload refuses what shared/verdicts.ts says (an invalid condition is stored, as the service
 * stores it); a dry-run refuses every error, since its verdict would fail closed on it.
 */
export function policyValueOrInvalid(text: string, field: string, refuses: (finding: Finding) => boolean): unknown {
  const { value, findings } = validateText('env-policy', text);
  const errors = findings.filter(refuses);
  if (errors.length === 0) return value;
  const lines = lineIndexOf(text);
  const out: Record<string, string> = {};
  for (const finding of errors) {
    const key = finding.path.length === 0 ? field : `${field}.${fieldPath(finding.path)}`;
    const { line, character } = lines.positionAt(finding.range.start);
    out[key] ??= `${finding.message} (line ${line + 1}, column ${character + 1})`;
  }
  throw invalid(out);
}
