// The `data_json` of the attestation types other than scan, and the override body: the shared
// schema, the fields each type requires, and the cross-field rules every type follows.
import type { Issue } from '../findings.ts';
import { schemaIssues } from '../schemas/issues.ts';
import { isObject } from '../text/values.ts';
import { targetArtifactIssues } from './scan.ts';

/** The attestation kinds of the URL (`/trail/{trail}/{kind}`) that this schema covers. */
export const attestationKinds = [
  'generic',
  'junit',
  'snyk',
  'jira',
  'pull_request',
  'custom',
  'system',
  'override',
] as const;
export type AttestationKind = (typeof attestationKinds)[number];

const requiredFields: Record<AttestationKind, readonly string[]> = {
  generic: [],
  junit: ['junit_results'],
  snyk: ['snyk_results'],
  jira: ['jira_results'],
  pull_request: ['git_provider', 'pull_requests'],
  custom: ['type_name', 'attestation_data'],
  system: ['type_name', 'attestation_data'],
  override: ['new_compliance_status', 'original_attestation_type'],
};

export function isAttestationKind(kind: string): kind is AttestationKind {
  return (attestationKinds as readonly string[]).includes(kind);
}

export function checkAttestation(kind: AttestationKind, value: unknown): Issue[] {
  const issues = schemaIssues('attestation', value, 'attestation');
  if (isObject(value)) {
    for (const field of requiredFields[kind]) {
      if (value[field] !== undefined) continue;
      issues.push({
        code: 'attestation/missing-field',
        severity: 'error',
        message: 'Field required',
        path: [field],
        target: 'key',
      });
    }
    // An override must say where it was decided (reference §8.3 item 17); other types may leave it empty.
    if (kind === 'override' && value.origin_url === '') {
      issues.push({
        code: 'attestation/empty-url',
        severity: 'error',
        message: 'Input should be a valid URL, input is empty',
        path: ['origin_url'],
        target: 'value',
      });
    }
    if (kind === 'system' && value.type_name !== undefined && value.type_name !== 'decision') {
      issues.push({
        code: 'attestation/bad-value',
        severity: 'error',
        message: "Input should be 'decision'",
        path: ['type_name'],
        target: 'value',
      });
    }
  }
  return [...issues, ...targetArtifactIssues(value, 'attestation')];
}
