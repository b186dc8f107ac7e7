// Compliance rules: per-type attestation verdicts, trail evaluation, artifact state and policy decisions.

export { type ArtifactSlotStatus, type AttestationSlotStatus, type ComplianceState, COMPLIANCE_STATES, artifactState, worstState } from './status.ts';
export { COMPLIANCE_DESCRIPTIONS, type ComplianceOptions, describeCompliance, isAttestationCompliant } from './attestations.ts';
export {
  type ArtifactStatus,
  type AttestationStatus,
  type ComplianceStatus,
  type TemplateArtifact,
  type TemplateAttestation,
  type TrailArtifact,
  type TrailAttestation,
  type TrailEvaluation,
  type TrailTemplate,
  evaluateTrail,
  typeFillsSlot,
} from './trail.ts';
