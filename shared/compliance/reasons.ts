// Why an attestation is non-compliant, in words, beside the rule that decides it (attestations.ts):
// the failing condition of a quality gate ("coverage 62 < 80"), the suites with failures, the
// findings, the issues that do not exist, the custom type's rule that does not hold, read as a
// comparison with the reported value where it is one (".line_coverage >= 80" on 62 reads
// "line_coverage 62 < 80"). Each face that says why (the trail page, the detail views) asks here, so
// the reason is the rule's own and never a second copy of it.
import { isObject } from '../text/values.ts';
import { ruleVerdicts } from '../customTypes/rules.ts';
import { snykSummaryOf } from './attestations.ts';

/** For a custom type: the rules of the type version the attestation was checked with. */
export interface ReasonOptions {
  rules?: readonly string[];
}

/**
 * Why an attestation of `type` (as stored: `junit`, `custom:coverage`, `system:decision`...) with
 * `data` (its data_json, the custom and decision data under `attestation_data`) fails its type's
 * rule; empty when nothing more particular than "non-compliant" can be said.
 */
export function nonComplianceReasons(type: string, data: unknown, options: ReasonOptions = {}): string[] {
  const body = isObject(data) ? data : {};
  if (type === 'custom' || type.startsWith('custom:')) return customReasons(body.attestation_data, options.rules ?? []);
  if (type === 'system' || type.startsWith('system:') || type === 'decision')
    return [`the decision is non-compliant${sentence(body.description)}`];
  switch (type) {
    case 'generic':
      return ['it was reported non-compliant'];
    case 'junit':
      return junitReasons(body.junit_results);
    case 'snyk':
      return snykReasons(body);
    case 'scan':
      return scanReasons(body.scan_results);
    case 'jira':
      return jiraReasons(body.jira_results);
    case 'pull_request':
      return ['no pull request was reported'];
    default:
      return [];
  }
}

/** A reported value as text: a string as it is, anything else as JSON. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

function sentence(value: unknown): string {
  return typeof value === 'string' && value.trim() !== '' ? `: ${value.trim()}` : '';
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** A suite's count of `word`s as the rule reads it: nothing for none, "unreadable" for what is no number. */
function counted(value: unknown, word: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'number' || !Number.isFinite(value)) return `${word} count unreadable`;
  return value > 0 ? plural(value, word) : '';
}

function junitReasons(suites: unknown): string[] {
  if (!Array.isArray(suites) || suites.length === 0) return ['no test results were reported'];
  return suites.flatMap((suite, index) => {
    if (!isObject(suite)) return [`suite ${index + 1} unreadable`];
    const what = [counted(suite.failures, 'failure'), counted(suite.errors, 'error')].filter(Boolean);
    if (what.length === 0) return [];
    const name = typeof suite.name === 'string' && suite.name !== '' ? suite.name : `suite ${index + 1}`;
    return [`${name}: ${what.join(', ')}`];
  });
}

function snykReasons(data: Record<string, unknown>): string[] {
  const summary = snykSummaryOf(data);
  if (summary === null || summary.results.length === 0) return ['no scan results were reported'];
  const listed =
    isObject(data.snyk_results) && Array.isArray(data.snyk_results.results) ? data.snyk_results.results : [];
  return summary.results.flatMap((result, index) => {
    const found = (['high', 'medium', 'low'] as const)
      .map((level) => [level, result[`${level}_count`]] as const)
      .filter(([, number]) => number > 0);
    if (found.length === 0) return [];
    const entry: unknown = listed[index];
    const name = isObject(entry)
      ? [entry.name, entry.target, entry.project].find((text) => typeof text === 'string' && text !== '')
      : undefined;
    const total = found.reduce((sum, [, number]) => sum + number, 0);
    const findings = found.map(([level, number]) => `${number} ${level}`).join(', ');
    return [
      `${typeof name === 'string' ? name : `result ${index + 1}`}: ${findings} ${total === 1 ? 'finding' : 'findings'}`,
    ];
  });
}

/** A quality gate's comparator as a sign: the condition fails when the value compares so with the threshold. */
const COMPARATORS: Readonly<Record<string, string>> = {
  LT: '<',
  LESS_THAN: '<',
  GT: '>',
  GREATER_THAN: '>',
  EQ: '=',
  EQUALS: '=',
  NE: '≠',
  NOT_EQUALS: '≠',
};

function scanReasons(results: unknown): string[] {
  const gate = isObject(results) && isObject(results.qualityGate) ? results.qualityGate : undefined;
  if (gate === undefined) return ['no quality gate was reported'];
  const failing = (Array.isArray(gate.conditions) ? gate.conditions : []).filter(
    (condition): condition is Record<string, unknown> =>
      isObject(condition) && condition.status !== 'OK' && condition.status !== undefined,
  );
  const conditions = failing.map((condition) => {
    const value = condition.value ?? condition.actualValue;
    const comparator = text(condition.operator ?? condition.comparator);
    const sign = COMPARATORS[comparator.toUpperCase()] ?? comparator.toLowerCase();
    return value === undefined || value === null
      ? `${text(condition.metric)} ${text(condition.status).toLowerCase()} (threshold ${text(condition.errorThreshold)})`
      : `${text(condition.metric)} ${text(value)} ${sign} ${text(condition.errorThreshold)}`;
  });
  return conditions.length > 0 ? conditions : [`quality gate ${text(gate.status)}`];
}

function jiraReasons(issues: unknown): string[] {
  const list = Array.isArray(issues) ? issues.filter(isObject) : [];
  if (list.length === 0) return ['no issue is referenced'];
  return list
    .filter((issue) => issue.issue_exists !== true)
    .map((issue) => `issue ${text(issue.issue_id)} does not exist`);
}

/** A rule that compares one field with a literal: `.path.to.field >= 80`. */
const COMPARISON =
  /^\s*\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*(>=|<=|==|!=|>|<)\s*(-?\d+(?:\.\d+)?|"[^"\\]*"|true|false|null)\s*$/;
/** The comparison that holds when the rule's does not. */
const OPPOSITE: Readonly<Record<string, string>> = { '>=': '<', '<=': '>', '>': '≤', '<': '≥', '==': '≠', '!=': '=' };

function customReasons(data: unknown, rules: readonly string[]): string[] {
  let verdicts: boolean[];
  try {
    verdicts = ruleVerdicts(rules, data);
  } catch {
    return ['its rules could not be evaluated within the budget'];
  }
  return rules.filter((_, index) => !verdicts[index]).map((rule) => ruleReason(rule, data));
}

function ruleReason(rule: string, data: unknown): string {
  const match = COMPARISON.exec(rule);
  if (match === null) return `rule ${rule.trim()} does not hold`;
  const [, path, operator, literal] = match;
  let value: unknown = data;
  for (const key of path.split('.')) value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  if (value === undefined) return `${path} is missing (rule ${rule.trim()})`;
  return `${path} ${JSON.stringify(value)} ${OPPOSITE[operator]} ${literal}`;
}
