// Environment policies (reference §2.9) and the flows of an assert's answer (§2.10) as the API
// answers them.
import type { evaluateTrail } from '../../../shared/compliance/index.ts';
import type { AssertResult, Policy } from '../../../shared/contract/types.ts';
import type { Policy as PolicyRow } from '../store/policies.ts';

export function policyView(policy: PolicyRow): Policy {
  return {
    name: policy.name,
    description: policy.description,
    type: policy.type,
    archived: policy.archived,
    consuming_envs: policy.consumingEnvs,
    created_at: policy.createdAt,
    created_by: policy.createdBy,
    last_modified_at: policy.lastModifiedAt,
    events: policy.events,
    versions: policy.versions.map((version) => ({
      version: version.version,
      policy_yaml: version.policyYaml,
      timestamp: version.timestamp,
      created_by: version.createdBy,
      comment: version.comment,
    })),
  };
}

/** A flow an asserted artifact was attested in: its latest trail there, and that trail's compliance. */
export function assertedFlowView(
  flowName: string,
  trailName: string,
  evaluation: ReturnType<typeof evaluateTrail>,
): AssertResult['flows'][number] {
  return {
    flow: flowName,
    trail: trailName,
    compliance_status: {
      status: evaluation.compliance_status.status,
      attestations_statuses: evaluation.compliance_status.attestations_statuses.map((status) => ({
        attestation_name: status.attestation_name,
        attestation_type: status.attestation_type,
        status: status.status,
        is_compliant: status.is_compliant,
        unexpected: status.unexpected,
      })),
    },
  };
}
