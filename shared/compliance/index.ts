// Compliance rules: per-type attestation verdicts, trail evaluation, artifact state, policy decisions and their aggregation.

export {
  type ArtifactSlotStatus,
  type AttestationSlotStatus,
  type ComplianceState,
  COMPLIANCE_STATES,
  artifactState,
  worstState,
} from './status.ts';
export {
  COMPLIANCE_DESCRIPTIONS,
  type ComplianceOptions,
  describeCompliance,
  isAttestationCompliant,
  type SnykSummary,
  snykSummaryOf,
} from './attestations.ts';
export {
  type ArtifactStatus,
  type AttestationStatus,
  type ComplianceStatus,
  type TrailArtifact,
  type TrailAttestation,
  type TrailEvaluation,
  type TrailTemplate,
  evaluateTrail,
  typeFillsSlot,
} from './trail.ts';
export {
  type AppliedPolicy,
  type ArtifactProvenance,
  type PolicyArtifact,
  type PolicyDecision,
  type PolicyStatus,
  type Resolution,
  type ResolutionType,
  type RuleEvaluation,
  type RuleType,
  artifactComplianceCount,
  artifactPolicyCompliance,
  assertedCompliance,
  evaluatePolicies,
  reasonsForIncompliance,
  ruleChecksOf,
  ruleFailure,
  rulePathsOf,
  snapshotCompliance,
} from './policies.ts';
export { type SlotChange, type TrailImpact, trailImpact } from './impact.ts';
export { nonComplianceReasons, type ReasonOptions } from './reasons.ts';
