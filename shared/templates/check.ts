// A flow template's verdict: the schema, then the rules a schema cannot say (unique names,
// helpful wording for types and versions).
import type { Issue, PathSegment } from '../findings.ts';
import { schemaIssues } from '../schemas/issues.ts';
import { quotedChoice, suggestionsFor } from '../text/suggest.ts';
import { isObject, valueAt } from '../text/values.ts';
import { attestationTypes, isAttestationType } from './model.ts';

const expectedVersion = { expected: 'version: 1' };
const typeChoices = quotedChoice([...attestationTypes, 'custom:<type-name>']);
const namedTypes = attestationTypes.filter((known) => known !== '*');

export function checkTemplate(value: unknown): Issue[] {
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
        if (isObject(artifact)) issues.push(...attestationIssues(artifact.attestations, ['trail', 'artifacts', index, 'attestations']));
      });
    }
  }
  return issues;
}

/** Gives the schema's generic findings the template's own codes and wording; drops type findings the type rule reports better. */
function refinedSchemaIssue(issue: Issue, value: unknown): Issue | undefined {
  const [first] = issue.path;
  const last = issue.path[issue.path.length - 1];
  if (issue.path.length === 1 && first === 'version') {
    if (issue.code === 'template/missing-field') {
      return { ...issue, code: 'template/missing-version', message: "Field required: a template starts with 'version: 1'", data: expectedVersion };
    }
    return { ...issue, code: 'template/bad-version', message: 'Input should be 1: version 1 is the only template version', data: expectedVersion };
  }
  if (last === 'type' && issue.code === 'template/bad-value' && typeof valueAt(value, issue.path) === 'string') return undefined;
  if (last === 'name' && issue.code === 'template/bad-pattern') {
    return valueAt(value, issue.path) === '' ? { ...issue, code: 'template/empty-name' } : { ...issue, code: 'template/bad-name' };
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
      severity: 'error',
      message: `Duplicate ${what} name '${entry.name}': it is already used at position ${first}; names must be unique in this list`,
      path: [...path, index, 'name'],
      target: 'value',
      data: { name: entry.name, first: [...path, first, 'name'] },
    });
  });
  return issues;
}
