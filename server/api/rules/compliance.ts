// A trail's compliance, evaluated by the shared core from the stored rows. `evaluated_at` is the
// time of the trail's last event, so the same trail always reads the same.
import { evaluateTrail, type TrailEvaluation } from '../../../shared/compliance/index.ts';
import type { Artifact } from '../store/artifacts.ts';
import type { Attestation } from '../store/attestations.ts';
import type { Store } from '../store/index.ts';
import type { Trail } from '../store/trails.ts';

/** `inTrail` and `artifactsInTrail`: the trail's attestations and artifacts when the caller has read them already. */
export async function evaluationOf(
  store: Store,
  trail: Trail,
  inTrail?: readonly Attestation[],
  artifactsInTrail?: readonly Artifact[],
): Promise<TrailEvaluation> {
  const attestations = (inTrail ?? (await store.attestations.inTrail(trail.id))).map((attestation) => ({
    id: attestation.id,
    name: attestation.name,
    type: attestation.type,
    is_compliant: attestation.isCompliant,
    created_at: attestation.createdAt,
    target_artifact: attestation.targetArtifact,
    artifact_fingerprint: attestation.artifactFingerprint,
    is_override: attestation.isOverride,
  }));
  const artifacts = (artifactsInTrail ?? (await store.artifacts.inTrail(trail.id))).map((artifact) => ({
    id: artifact.id,
    fingerprint: artifact.fingerprint,
    template_reference_name: artifact.templateReferenceName,
    created_at: artifact.createdAt,
  }));
  return evaluateTrail(trail.template.parsed, attestations, artifacts, trail.lastModifiedAt, trail.template.id);
}
