// Per-type attestation compliance (reference §2.3 and §3.3), decided once from the reported
// `data_json` so the API stores `is_compliant` and every face shows the same verdict.
// Data that lacks what a type's rule needs is non-compliant: evidence that cannot be read proves
// nothing. A list the official CLI sends as null (its empty list) counts as the empty list.
// Bodies are schema-checked before they get here; these checks only keep it total.
import { isObject, objectOrEmpty } from '../text/values.ts';

/** How a type's compliance is decided, for the editor's hover on a template or policy type. */
export const COMPLIANCE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  generic: 'Compliant when the reported `is_compliant` is true (it defaults to true).',
  junit: 'Compliant when the test suites report no failures and no errors.',
  snyk: 'Compliant when every result has zero high, medium and low findings.',
  scan: 'Compliant when the quality gate status is `OK`.',
  jira: 'Compliant when at least one issue is referenced and every referenced issue exists.',
  pull_request: 'Compliant when at least one pull request is reported.',
  custom: 'Compliant when every rule of the custom type holds (a type without rules is always compliant).',
  decision: 'Compliant when the decision says `is_compliant: true`.',
  override: 'Takes the compliance given as `new_compliance_status`, replacing the overridden attestation.',
  '*': 'Any attestation type; compliant by the rule of the type reported.',
};

/** The hover text for a type as written in a template or policy (`custom:<name>`, `system:decision` included). */
export function describeCompliance(type: string): string | undefined {
  return COMPLIANCE_DESCRIPTIONS[ruleKind(type)];
}

export interface ComplianceOptions {
  /** For custom types: whether every jq rule of the type held, computed by whoever runs jq. */
  customRulesPassed?: boolean;
}

/**
 * Whether an attestation of `type` (the URL type `generic`..`custom`, `system`, or the stored
 * type `custom:<name>`, `system:decision`, `decision`, or `override`) with `data` is compliant.
 */
export function isAttestationCompliant(type: string, data: unknown, options: ComplianceOptions = {}): boolean {
  const body = objectOrEmpty(data);
  switch (ruleKind(type)) {
    case 'generic':
      return body.is_compliant === undefined || body.is_compliant === null || body.is_compliant === true;
    case 'junit':
      return (
        listOf(body.junit_results)?.every(
          (suite) => isObject(suite) && count(suite.failures) + count(suite.errors) === 0,
        ) ?? false
      );
    case 'snyk':
      return isObject(body.snyk_results) && (listOf(body.snyk_results.results)?.every(hasNoFindings) ?? false);
    case 'scan':
      return (
        isObject(body.scan_results) &&
        isObject(body.scan_results.qualityGate) &&
        body.scan_results.qualityGate.status === 'OK'
      );
    case 'jira': {
      const issues = listOf(body.jira_results) ?? [];
      return issues.length > 0 && issues.every((issue) => isObject(issue) && issue.issue_exists === true);
    }
    case 'pull_request':
      return (listOf(body.pull_requests) ?? []).length > 0;
    case 'custom':
      return options.customRulesPassed ?? true;
    case 'decision':
      return isObject(body.attestation_data) && body.attestation_data.is_compliant === true;
    case 'override':
      return body.new_compliance_status === true;
    default:
      return false;
  }
}

/** The rule family of a type: `custom:x` → custom, `system`/`system:decision` → decision. */
function ruleKind(type: string): string {
  if (type === 'custom' || type.startsWith('custom:')) return 'custom';
  if (type === 'system' || type === 'system:decision') return 'decision';
  return type;
}

function hasNoFindings(result: unknown): boolean {
  if (!isObject(result)) return false;
  return (['high', 'medium', 'low'] as const).every((level) => {
    const counted = result[`${level}_count`];
    const listed = result[level];
    return count(counted) === 0 && (!Array.isArray(listed) || listed.length === 0);
  });
}

/** A snyk attestation's findings counted per result, as its answer shows them (`processed_snyk_results`). */
export interface SnykSummary {
  schema_version: number;
  tool: Record<string, unknown> | null;
  results: Array<{ high_count: number; medium_count: number; low_count: number }>;
}

/**
 * The counts of a snyk attestation's `snyk_results`: per result and level, the reported count or,
 * when the findings are listed, as many as are listed (the larger of the two). Null for data that
 * holds no snyk results.
 */
export function snykSummaryOf(data: unknown): SnykSummary | null {
  const results = objectOrEmpty(data).snyk_results;
  if (!isObject(results)) return null;
  const levelCount = (result: Record<string, unknown>, level: 'high' | 'medium' | 'low'): number => {
    const listed = result[level];
    return Math.max(count(result[`${level}_count`]), Array.isArray(listed) ? listed.length : 0);
  };
  return {
    schema_version: typeof results.schema_version === 'number' ? results.schema_version : 1,
    tool: isObject(results.tool) ? results.tool : null,
    results: (listOf(results.results) ?? []).map((item) => {
      const result = objectOrEmpty(item);
      return {
        high_count: levelCount(result, 'high'),
        medium_count: levelCount(result, 'medium'),
        low_count: levelCount(result, 'low'),
      };
    }),
  };
}

/** The list as sent, `[]` for null (a Go client's empty list); undefined when it is no list at all. */
function listOf(value: unknown): unknown[] | undefined {
  if (value === null) return [];
  return Array.isArray(value) ? value : undefined;
}

/** A count as reported; absent means none, anything unreadable counts as a finding. */
function count(value: unknown): number {
  if (value === undefined || value === null) return 0;
  return typeof value === 'number' && Number.isFinite(value) ? value : 1;
}
