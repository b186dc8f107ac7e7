// What policies judge a running artifact by: the trails that produced it (its provenance), each
// with its compliance as of `now`; a trail that several artifacts share is evaluated once.
import { evaluateTrail, type ArtifactProvenance, type ComplianceState } from '../../../shared/compliance/index.ts';
import type { Origin } from '../store/provenance.ts';

export interface PolicyProvenance {
  /** The trails that produced the artifact with this fingerprint, as the store read them. */
  originsOf(fingerprint: string): Origin[];
  /** The same trails as the policy evaluator reads them. */
  provenanceOf(fingerprint: string): ArtifactProvenance[];
}

/** The provenance of the fingerprints `origins` holds (the store's origins by fingerprint), as of `now`. */
export function provenanceFrom(origins: ReadonlyMap<string, Origin[]>, now: number): PolicyProvenance {
  const trailStates = new Map<string, ComplianceState>();
  const stateOf = (origin: Origin): ComplianceState => {
    let state = trailStates.get(origin.trailId);
    if (state === undefined) {
      state = evaluateTrail(
        origin.trailTemplate,
        origin.attestations,
        origin.artifacts,
        now,
        origin.flowTemplateId,
      ).compliance_state;
      trailStates.set(origin.trailId, state);
    }
    return state;
  };
  const originsOf = (fingerprint: string) => origins.get(fingerprint) ?? [];
  return {
    originsOf,
    provenanceOf: (fingerprint) =>
      originsOf(fingerprint).map((origin) => ({
        flow_name: origin.flowName,
        flow_tags: origin.flowTags,
        trail_name: origin.trailName,
        compliance_state: stateOf(origin),
        attestations: origin.attestations,
        artifacts: origin.artifacts,
      })),
  };
}
