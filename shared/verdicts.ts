// Where a verdict may be stricter than the published schemas, and the one place the faces differ.
// Every refusal beyond a schema keyword is listed here with its source, so a rule without a
// documented basis cannot refuse a document (the property test holds every error to this list).
// Stricter checks that help but have no such basis are warnings, which never refuse an upload.
// The shared limits (shared/limits.ts, codes `limits/...`) refuse whatever a document says: the
// spec's Limits leave a server limits of its own, and every face applies the same ones.
import type { Issue } from './findings.ts';

/** Rules beyond the schemas that make a document invalid, each with the section that says so. */
export const refusalSources: Readonly<Record<string, string>> = {
  'policy/any-name-any-type': 'reference §4.1: name and type may not both be *',
  'policy/for-control-without-decision': 'reference §4.1: for_control is allowed only with type decision',
  'policy/bad-expression':
    'reference §4.2: a condition is a ${{ }} expression of the listed operators, contexts and functions (editor and cev validate only, see evaluationTimeCodes)',
  'policy/unsupported-pattern':
    'reference §4.2: matches(string, regex) takes a regular expression; one the linear-time engine cannot run (issue 23) is refused where the policy is stored',
  'scan/too-many-target-artifacts': 'spec endpoint 1, cross-field rule 1',
  'scan/target-artifacts-without-commit': 'spec endpoint 1, cross-field rule 2; reference §2.3',
  'attestation/too-many-target-artifacts': 'spec endpoint 1, cross-field rule 1 (reference §2.3: common to every type)',
  'attestation/target-artifacts-without-commit':
    'spec endpoint 1, cross-field rule 2 (reference §2.3: common to every type)',
  'attestation/empty-url': 'reference §8.3 item 17: an override with an empty origin_url is refused',
};

/**
 * Findings the editor and `cev validate` show as errors but an upload does not fail on. The
 * service documents that an invalid `${{ }}` condition makes policy *evaluation* fail, not the
 * upload: so the server stores such a policy (as the service does) and its evaluation fails
 * closed (shared/compliance/policies.ts), while the editor flags the condition where it is typed.
 * This is the only deliberate difference between the faces' verdicts.
 */
export const evaluationTimeCodes: ReadonlySet<string> = new Set(['policy/bad-expression']);

/** Whether a finding makes the server refuse an upload: every error except the evaluation-time ones. */
export function refusesUpload(finding: Pick<Issue, 'severity' | 'code'>): boolean {
  return finding.severity === 'error' && !evaluationTimeCodes.has(finding.code);
}
