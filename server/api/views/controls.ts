// Controls and their decisions as the API answers them (beta; reference §2.11). A decision is a
// `system:decision` attestation, shown with the control it decides on.
import type { Control, ControlDecision } from '../../../shared/contract/types.ts';
import type { Attestation } from '../store/attestations.ts';
import type { Control as ControlRow } from '../store/controls.ts';

/** A control with the names of the live policies whose rules name it (`for_control`). */
export function controlView(control: ControlRow, policiesReferencing: string[]): Control {
  return {
    identifier: control.identifier,
    name: control.name,
    description: control.description,
    version: control.version,
    archived: control.archived,
    created_by: control.createdBy,
    created_at: control.createdAt,
    last_modified_at: control.lastModifiedAt,
    tags: control.tags,
    links: control.links,
    policies_referencing: policiesReferencing,
  };
}

/** A decision on `control`; `artifactName` is the name its artifact has in the decision's trail. */
export function controlDecisionView(
  host: string,
  orgName: string,
  control: ControlRow,
  decision: Attestation,
  artifactName: string,
): ControlDecision {
  const body = decision.body;
  const evidenceUrl = `${host}/api/v2/attestations/${encodeURIComponent(orgName)}/${encodeURIComponent(decision.flowName)}/trail/${encodeURIComponent(decision.trailName)}/attestation/${decision.id}/evidence`;
  return {
    control: control.identifier,
    is_compliant: decision.isCompliant,
    timestamp: decision.createdAt,
    attestation_name: decision.name,
    evidence_files:
      decision.evidence === null ? [] : [{ filename: decision.evidence.filename, download_url: evidenceUrl }],
    control_version: typeof body.control_version === 'number' ? body.control_version : control.version,
    flow_name: decision.flowName,
    trail_name: decision.trailName,
    artifact_fingerprint: decision.artifactFingerprint ?? '',
    artifact_name: artifactName,
    description: typeof body.description === 'string' ? body.description : '',
    origin_url: typeof body.origin_url === 'string' ? body.origin_url : '',
    user_data: body.user_data !== null && typeof body.user_data === 'object' ? body.user_data : {},
  };
}
