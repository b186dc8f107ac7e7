// The sentence that tells the user how the server judged a new attestation.
import type { AttestationStatus, Trail } from '../../shared/apiClient/types.ts';

/** "Compliant. Trail 't' is INCOMPLETE." from the trail as the server now evaluates it. */
export function verdictOf(trail: Trail, attestationName: string): string {
  const status = trail.compliance_status;
  const all: AttestationStatus[] = [...(status?.attestations_statuses ?? [])];
  for (const artifact of Object.values(status?.artifacts_statuses ?? {}))
    all.push(...(artifact.attestations_statuses ?? []));
  const mine = all.find((attestation) => attestation.attestation_name === attestationName);
  const own = mine?.is_compliant === true ? 'Compliant.' : mine?.is_compliant === false ? 'Not compliant.' : '';
  return `${own} Trail '${trail.name}' is ${trail.compliance_state ?? status?.status ?? 'not evaluated'}.`.trim();
}
