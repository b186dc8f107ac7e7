// Controls and their decisions as the API answers them (beta; reference §2.11). A decision is a
// `system:decision` attestation, shown with the control it decides on.
import type {
  Control,
  ControlCoverage,
  ControlDecision,
  ControlVersion,
  ListedControlDecision,
} from '../../../shared/contract/types.ts';
import type { CoverageCounts } from '../rules/controlCoverage.ts';
import type { Attestation } from '../store/attestations.ts';
import type { Control as ControlRow, ControlVersion as ControlVersionRow } from '../store/controls.ts';

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

/** A control as one of its versions read. */
export function controlVersionView(identifier: string, version: ControlVersionRow): ControlVersion {
  return {
    identifier,
    version: version.version,
    name: version.name,
    description: version.description,
    links: version.links,
    created_by: version.createdBy,
    created_at: version.createdAt,
  };
}

/** A decision in its control's list: the decision, with its id. */
export function listedDecisionView(decision: ControlDecision, id: string): ListedControlDecision {
  return { ...decision, decision_id: id };
}

/** Where the control is asked for, each environment with its counts, and the counts of them all. */
export function controlCoverageView(
  identifier: string,
  policies: string[],
  environments: ReadonlyArray<{
    name: string;
    policies: string[];
    snapshotIndex: number | null;
    counts: CoverageCounts;
  }>,
): ControlCoverage {
  const total: CoverageCounts = { running: 0, covered: 0, not_covered: 0 };
  for (const { counts } of environments) {
    total.running += counts.running;
    total.covered += counts.covered;
    total.not_covered += counts.not_covered;
  }
  return {
    identifier,
    policies,
    environments: environments.map((environment) => ({
      environment_name: environment.name,
      policies: environment.policies,
      snapshot_index: environment.snapshotIndex,
      ...environment.counts,
    })),
    ...total,
  };
}
