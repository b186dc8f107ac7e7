// An environment policy's verdict: the schema, then the rules beside it (`name` and `type` not
// both `*`, `for_control` only with `decision` (reference §4.1), and every `${{ }}` condition's
// syntax, placed at the exact column). Names, types and control identifiers that no attestation
// could match are warnings: the reference puts no pattern or list on these fields of a policy.
import { parseCondition } from '../expressions/index.ts';
import type { Issue, PathSegment } from '../findings.ts';
import { countText, limitCodes, limits } from '../limits.ts';
import { schemaIssues } from '../schemas/issues.ts';
import { unknownAttestationTypeIssue } from '../templates/check.ts';
import { CONTROL_IDENTIFIER_PATTERN } from '../names.ts';
import { attestationNamePattern, isAttestationType } from '../templates/model.ts';
import { isObject } from '../text/values.ts';

/** Control identifiers (reference §1.7), at most 256 characters. */
const controlIdentifierPattern = new RegExp(`(?=^.{1,256}$)${CONTROL_IDENTIFIER_PATTERN}`);

const policySchemaUrl = 'https://compliance-evidence.dev/schemas/policy/environment/v1';

export function checkPolicy(value: unknown): Issue[] {
  // Counted before any rule runs: past the limit, the rules' work is what the limit prevents.
  const rules = ruleCountOf(value);
  if (rules > limits.policyRules) return [tooManyRulesIssue(rules)];
  const issues = schemaIssues('env-policy', value, 'policy').map(refinedSchemaIssue);
  if (!isObject(value) || !isObject(value.artifacts)) return issues;
  const artifacts = value.artifacts;
  for (const rule of ['provenance', 'trail-compliance']) {
    const requirement = artifacts[rule];
    if (!isObject(requirement) || !Array.isArray(requirement.exceptions)) continue;
    requirement.exceptions.forEach((exception, index) => {
      if (isObject(exception))
        issues.push(...conditionIssues(exception.if, ['artifacts', rule, 'exceptions', index, 'if']));
    });
  }
  if (Array.isArray(artifacts.attestations)) {
    artifacts.attestations.forEach((entry, index) => {
      if (isObject(entry)) issues.push(...attestationRuleIssues(entry, ['artifacts', 'attestations', index]));
    });
  }
  return issues;
}

/** Attestation rules and requirement exceptions: what evaluating the policy on an artifact walks. */
function ruleCountOf(value: unknown): number {
  if (!isObject(value) || !isObject(value.artifacts)) return 0;
  const artifacts = value.artifacts;
  let count = Array.isArray(artifacts.attestations) ? artifacts.attestations.length : 0;
  for (const rule of ['provenance', 'trail-compliance']) {
    const requirement = artifacts[rule];
    if (isObject(requirement) && Array.isArray(requirement.exceptions)) count += requirement.exceptions.length;
  }
  return count;
}

function tooManyRulesIssue(rules: number): Issue {
  return {
    code: limitCodes.tooManyEntries,
    severity: 'error',
    message: `The policy has ${countText(rules)} rules (attestation rules and exceptions), over the limit of ${countText(limits.policyRules)}`,
    path: ['artifacts'],
    target: 'key',
  };
}

function refinedSchemaIssue(issue: Issue): Issue {
  if (issue.path.length !== 1 || issue.path[0] !== '_schema') return issue;
  const expected = { expected: `_schema: ${policySchemaUrl}` };
  if (issue.code === 'policy/missing-field') {
    return {
      ...issue,
      code: 'policy/missing-schema',
      message: `Field required: a policy names its format, e.g. _schema: ${policySchemaUrl}`,
      data: expected,
    };
  }
  return {
    ...issue,
    code: 'policy/bad-schema-url',
    message: `${issue.message}: _schema should be a URL whose path ends in /policy/environment/v1 or /policy/v1, e.g. ${policySchemaUrl}`,
    data: expected,
  };
}

function attestationRuleIssues(entry: Record<string, unknown>, path: PathSegment[]): Issue[] {
  const issues: Issue[] = [];
  const name = entry.name ?? '*';
  const type = entry.type;
  if (name === '*' && type === '*') {
    issues.push({
      code: 'policy/any-name-any-type',
      severity: 'error',
      message: "name and type cannot both be '*': name the attestation, or give its type",
      path: [...path, 'type'],
      target: 'value',
    });
  }
  if (typeof type === 'string' && !isAttestationType(type))
    issues.push({ ...unknownAttestationTypeIssue('policy', type, [...path, 'type']), severity: 'warning' });
  if (typeof entry.name === 'string' && entry.name !== '*' && !attestationNamePattern.test(entry.name)) {
    issues.push({
      code: 'policy/unmatchable-name',
      severity: 'warning',
      message: `No attestation is named '${entry.name}': attestation names match '${attestationNamePattern.source}' (reference §1.7); use '*' for any name`,
      path: [...path, 'name'],
      target: 'value',
    });
  }
  if (typeof entry.for_control === 'string' && !controlIdentifierPattern.test(entry.for_control)) {
    issues.push({
      code: 'policy/unmatchable-control',
      severity: 'warning',
      message: `No control has the identifier '${entry.for_control}': control identifiers match '${CONTROL_IDENTIFIER_PATTERN}' with at most 256 characters (reference §1.7)`,
      path: [...path, 'for_control'],
      target: 'value',
    });
  }
  if (entry.for_control !== undefined && entry.for_control !== null && type !== 'decision') {
    issues.push({
      code: 'policy/for-control-without-decision',
      severity: 'error',
      message: "for_control is allowed only with type 'decision': set type: decision, or remove for_control",
      path: [...path, 'for_control'],
      target: 'key',
      data: { expected: 'type: decision' },
    });
  }
  issues.push(...conditionIssues(entry.if, [...path, 'if']));
  return issues;
}

/** One issue per syntax error of a `${{ }}` condition, with its span inside the string. */
function conditionIssues(condition: unknown, path: PathSegment[]): Issue[] {
  if (typeof condition !== 'string') return [];
  return parseCondition(condition).errors.map((error) => ({
    code: error.unsupportedPattern ? 'policy/unsupported-pattern' : 'policy/bad-expression',
    severity: 'error' as const,
    message: error.message,
    path,
    target: 'value' as const,
    data: { valueSpan: { start: error.start, end: error.end } },
  }));
}
