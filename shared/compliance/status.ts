// The compliance vocabulary shared by trails, artifacts, attestations and environments.

/** A trail's or an artifact's verdict (`compliance_state`, `compliance_status.status`, artifact `state`). */
export type ComplianceState = 'COMPLIANT' | 'NON-COMPLIANT' | 'INCOMPLETE';

/** A template attestation slot: filled or not. */
export type AttestationSlotStatus = 'COMPLETE' | 'MISSING';

/** A template artifact slot: its verdict, or `MISSING` when no artifact was attested under its name. */
export type ArtifactSlotStatus = ComplianceState | 'MISSING';

export const COMPLIANCE_STATES: readonly ComplianceState[] = ['COMPLIANT', 'NON-COMPLIANT', 'INCOMPLETE'];

/** The worst of several verdicts: any NON-COMPLIANT, else any INCOMPLETE, else COMPLIANT. */
export function worstState(states: Iterable<ComplianceState>): ComplianceState {
  let worst: ComplianceState = 'COMPLIANT';
  for (const state of states) {
    if (state === 'NON-COMPLIANT') return state;
    if (state === 'INCOMPLETE') worst = state;
  }
  return worst;
}

/**
 * An artifact's `state`: the verdict of the trail it was attested in (reference §3.3); for an
 * artifact attested in several trails, the worst of them. No trail at all is INCOMPLETE.
 */
export function artifactState(trailStates: readonly ComplianceState[]): ComplianceState {
  return trailStates.length === 0 ? 'INCOMPLETE' : worstState(trailStates);
}
