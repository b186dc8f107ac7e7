// What policies judge a running artifact by, read for a whole snapshot in one statement
// (rules/policyProvenance.ts says what it comes to).
import type { Store } from '../store/index.ts';
import { provenanceFrom, type PolicyProvenance } from '../rules/policyProvenance.ts';

/** The provenance of every fingerprint (an empty one has none), as of `now`. */
export async function policyProvenanceOf(
  store: Store,
  orgId: number,
  fingerprints: readonly string[],
  now: number,
): Promise<PolicyProvenance> {
  const origins = await store.provenance.originsOf(
    orgId,
    fingerprints.filter((fingerprint) => fingerprint !== ''),
  );
  return provenanceFrom(origins, now);
}
