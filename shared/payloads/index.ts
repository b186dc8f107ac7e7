export { checkScanAttestation, commitOrFingerprintRequired, targetArtifactIssues } from './scan.ts';
export { attestationKinds, checkAttestation, isAttestationKind, type AttestationKind } from './attestation.ts';
