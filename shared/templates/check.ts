// A flow template's verdict: the schema, then helpful wording for types and versions, and two
// warnings the service does not enforce (repeated names, artifact names no attestation can target).
import type { Issue, PathSegment } from '../findings.ts';
import { countText, limitCodes, limits } from '../limits.ts';
import { schemaIssues } from '../schemas/issues.ts';
import { quotedChoice, suggestionsFor } from '../text/suggest.ts';
import { isObject, valueAt } from '../text/values.ts';
import { attestationNamePattern, attestationTypes, isAttestationType } from './model.ts';

const expectedVersion = { expected: 'version: 1' };
const typeChoices = quotedChoice([...attestationTypes, 'custom:<type-name>']);
const namedTypes = attestationTypes.filter((known) => known !== '*');

export function checkTemplate(value: unknown): Issue[] {
  // Counted before any rule runs: past the limit, the rules' work is what the limit prevents.
  const slots = slotCountOf(value);
  if (slots > limits.templateSlots) return [tooManySlotsIssue(slots)];
  const issues: Issue[] = [];
  for (const issue of schemaIssues('flow-template', value, 'template')) {
    const refined = refinedSchemaIssue(issue, value);
    if (refined !== undefined) issues.push(refined);
  }
  if (isObject(value) && isObject(value.trail)) {
    const trail = value.trail;
    issues.push(...attestationIssues(trail.attestations, ['trail', 'attestations']));
    if (Array.isArray(trail.artifacts)) {
      issues.push(...duplicateNameIssues(trail.artifacts, ['trail', 'artifacts'], 'artifact'));
      trail.artifacts.forEach((artifact, index) => {
        if (!isObject(artifact)) return;
        issues.push(...untargetableNameIssues(artifact.name, ['trail', 'artifacts', index, 'name']));
        issues.push(...attestationIssues(artifact.attestations, ['trail', 'artifacts', index, 'attestations']));
      });
    }
  }
  return issues;
}

/** Trail attestations, artifacts and artifact attestations: what evaluating a trail walks. */
function slotCountOf(value: unknown): number {
  if (!isObject(value) || !isObject(value.trail)) return 0;
  const { attestations, artifacts } = value.trail;
  let count = Array.isArray(attestations) ? attestations.length : 0;
  if (!Array.isArray(artifacts)) return count;
  count += artifacts.length;
  for (const artifact of artifacts)
    if (isObject(artifact) && Array.isArray(artifact.attestations)) count += artifact.attestations.length;
  return count;
}

function tooManySlotsIssue(slots: number): Issue {
  return {
    code: limitCodes.tooManyEntries,
    severity: 'error',
    message: `The template has ${countText(slots)} slots (trail attestations, artifacts and their attestations), over the limit of ${countText(limits.templateSlots)}`,
    path: ['trail'],
    target: 'key',
  };
}

/** Gives the schema's generic findings the template's own codes and wording; drops type findings the type rule reports better. */
function refinedSchemaIssue(issue: Issue, value: unknown): Issue | undefined {
  const [first] = issue.path;
  const last = issue.path[issue.path.length - 1];
  if (issue.path.length === 1 && first === 'version') {
    if (issue.code === 'template/missing-field') {
      return {
        ...issue,
        code: 'template/missing-version',
        message: "Field required: a template starts with 'version: 1'",
        data: expectedVersion,
      };
    }
    return {
      ...issue,
      code: 'template/bad-version',
      message: 'Input should be 1: version 1 is the only template version',
      data: expectedVersion,
    };
  }
  if (last === 'type' && issue.code === 'template/bad-value' && typeof valueAt(value, issue.path) === 'string')
    return undefined;
  if (last === 'name' && issue.code === 'template/bad-pattern') {
    return valueAt(value, issue.path) === ''
      ? { ...issue, code: 'template/empty-name' }
      : { ...issue, code: 'template/bad-name' };
  }
  return issue;
}

function attestationIssues(list: unknown, path: PathSegment[]): Issue[] {
  if (!Array.isArray(list)) return [];
  const issues = duplicateNameIssues(list, path, 'attestation');
  list.forEach((entry, index) => {
    if (isObject(entry) && typeof entry.type === 'string' && !isAttestationType(entry.type)) {
      issues.push(unknownAttestationTypeIssue('template', entry.type, [...path, index, 'type']));
    }
  });
  return issues;
}

/** An attestation type that is neither built in nor `custom:<name>`, with the nearest built-in names; policies name types the same way. */
export function unknownAttestationTypeIssue(prefix: 'template' | 'policy', type: string, path: PathSegment[]): Issue {
  const suggestions = suggestionsFor(type, namedTypes);
  const hint = suggestions.length > 0 ? ` Did you mean '${suggestions[0]}'?` : '';
  return {
    code: `${prefix}/unknown-attestation-type`,
    severity: 'error',
    message: `Input should be ${typeChoices}.${hint}`,
    path,
    target: 'value',
    data: { type, suggestions, allowed: [...attestationTypes] },
  };
}

/**
 * The reference gives an artifact's template name no pattern (§3.1), so any string is accepted;
 * but attestations bind to it through `target_artifacts`, whose items follow the attestation-name
 * pattern (spec endpoint 1, reference §1.7), so a name outside it can never be targeted.
 */
function untargetableNameIssues(name: unknown, path: PathSegment[]): Issue[] {
  if (typeof name !== 'string' || attestationNamePattern.test(name)) return [];
  return [
    {
      code: 'template/untargetable-artifact-name',
      severity: 'warning',
      message: `No attestation can target the artifact '${name}': target_artifacts names match '${attestationNamePattern.source}' (letters, digits, '_', ',' and '-')`,
      path,
      target: 'value',
    },
  ];
}

/** Neither the spec nor the reference asks for unique names (§3.1); a repeated one is only redundant, so a warning. */
function duplicateNameIssues(list: unknown[], path: PathSegment[], what: 'attestation' | 'artifact'): Issue[] {
  const issues: Issue[] = [];
  const firstIndex = new Map<string, number>();
  list.forEach((entry, index) => {
    if (!isObject(entry) || typeof entry.name !== 'string' || entry.name === '') return;
    const first = firstIndex.get(entry.name);
    if (first === undefined) {
      firstIndex.set(entry.name, index);
      return;
    }
    issues.push({
      code: 'template/duplicate-name',
      severity: 'warning',
      message: `Duplicate ${what} name '${entry.name}': it is already used at position ${first}, so this entry adds nothing`,
      path: [...path, index, 'name'],
      target: 'value',
      data: { name: entry.name, first: [...path, first, 'name'] },
    });
  });
  return issues;
}
