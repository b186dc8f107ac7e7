// The parsed form of a flow template v1, with omitted lists filled in as empty.
import { ATTESTATION_NAME_PATTERN } from '../names.ts';

export interface TemplateAttestation {
  name: string;
  /** `generic`, `junit`, `snyk`, `scan`, `jira`, `pull_request`, `decision`, `custom:<name>` or `*`. */
  type: string;
}

export interface TemplateArtifact {
  /** The template reference name. */
  name: string;
  attestations: TemplateAttestation[];
}

export interface FlowTemplate {
  version: 1;
  trail: {
    attestations: TemplateAttestation[];
    artifacts: TemplateArtifact[];
  };
}

/** Built-in attestation types a template may name, besides `custom:<name>`. */
export const attestationTypes = ['generic', 'junit', 'snyk', 'scan', 'jira', 'pull_request', 'decision', '*'] as const;

/** The service's own rule for a custom type reference: `custom:` and a non-empty name (reference §3.1 names no pattern for it). */
export const customTypePattern = /^custom:.+$/;

/** Attestation names and `target_artifacts` items (spec endpoint 1, reference §1.7). */
export const attestationNamePattern = new RegExp(ATTESTATION_NAME_PATTERN);

export function isAttestationType(type: string): boolean {
  return (attestationTypes as readonly string[]).includes(type) || customTypePattern.test(type);
}

/** A checked template value in its normalized form. */
export function templateOf(value: unknown): FlowTemplate {
  const raw = value as {
    trail?: null | {
      attestations?: TemplateAttestation[];
      artifacts?: { name: string; attestations?: TemplateAttestation[] }[];
    };
  };
  return {
    version: 1,
    trail: {
      attestations: (raw.trail?.attestations ?? []).map(({ name, type }) => ({ name, type })),
      artifacts: (raw.trail?.artifacts ?? []).map((artifact) => ({
        name: artifact.name,
        attestations: (artifact.attestations ?? []).map(({ name, type }) => ({ name, type })),
      })),
    },
  };
}
