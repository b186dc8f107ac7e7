// The scan attestation's `data_json` (spec endpoint 1): the schema and its two cross-field rules.
import type { Issue } from '../findings.ts';
import { schemaIssues } from '../schemas/issues.ts';
import { isObject } from '../text/values.ts';

export const commitOrFingerprintRequired = 'requires at least one of: artifact_fingerprint or git_commit_info.';

export function checkScanAttestation(value: unknown): Issue[] {
  return [...schemaIssues('scan-attestation', value, 'scan'), ...targetArtifactIssues(value, 'scan')];
}

/** The spec's two cross-field rules on `target_artifacts`, shared by every attestation type. */
export function targetArtifactIssues(value: unknown, prefix: string): Issue[] {
  const issues: Issue[] = [];
  if (!isObject(value) || !Array.isArray(value.target_artifacts) || value.target_artifacts.length === 0) return issues;
  const targets = value.target_artifacts;
  const hasFingerprint = value.artifact_fingerprint !== undefined && value.artifact_fingerprint !== null;
  const hasCommit = value.git_commit_info !== undefined && value.git_commit_info !== null;
  if (hasFingerprint && targets.length > 1) {
    issues.push({
      code: `${prefix}/too-many-target-artifacts`,
      severity: 'error',
      message: `List should have at most 1 item when artifact_fingerprint is given, not ${targets.length}: one fingerprint names one artifact`,
      path: ['target_artifacts'],
      target: 'value',
      data: { count: targets.length },
    });
  }
  if (!hasFingerprint && !hasCommit) {
    issues.push({
      code: `${prefix}/target-artifacts-without-commit`,
      severity: 'error',
      message: `An attestation for target_artifacts ${commitOrFingerprintRequired} Add git_commit_info (or artifact_fingerprint).`,
      path: ['target_artifacts'],
      target: 'key',
      data: { expected: ['artifact_fingerprint', 'git_commit_info'] },
    });
  }
  return issues;
}
