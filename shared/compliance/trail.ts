// Trail evaluation against its template (reference §3.3, §3.4): which template slots are filled,
// which reported items are unexpected, and the trail's verdict. Pure: stored rows in, the API's
// `compliance_status` object out.

import type { TemplateArtifact, TemplateAttestation } from '../templates/model.ts';
import type { ArtifactSlotStatus, AttestationSlotStatus, ComplianceState } from './status.ts';

/**
 * What evaluation reads of the template a trail was begun with: a FlowTemplate, whose lists may
 * also be left out (null or `{}` is the empty template), as in a template's text.
 */
export interface TrailTemplate {
  trail?: {
    attestations?: readonly TemplateAttestation[] | null;
    artifacts?: ReadonlyArray<
      Omit<TemplateArtifact, 'attestations'> & { attestations?: readonly TemplateAttestation[] | null }
    > | null;
  } | null;
}

/** A stored attestation row of the trail, every version of every name (history included). */
export interface TrailAttestation {
  /** `attestation_id`. */
  id: string;
  /** `attestation_name`. */
  name: string;
  /** Stored `attestation_type` (`generic`, `custom:person`, `system:decision`...); for an override, its original type. */
  type: string;
  /** As decided by `isAttestationCompliant` when it was reported (for an override, `new_compliance_status`). */
  is_compliant: boolean;
  /** Seconds since the epoch; the latest report of a name wins. */
  created_at: number;
  /** The template artifact name it was bound to (`target_artifacts[0]`), if any. */
  target_artifact?: string | null;
  /** The fingerprint of the artifact it was reported against, if any. */
  artifact_fingerprint?: string | null;
  /** An override: it becomes the effective attestation of its name and points at the one it replaces. */
  is_override?: boolean;
  /** For a decision: the control identifier it decides (policy rules with `for_control` match on it). */
  control?: string | null;
}

/** A stored artifact row of the trail. */
export interface TrailArtifact {
  id: string;
  fingerprint: string;
  /** The template artifact name it was attested under. */
  template_reference_name: string;
  created_at: number;
}

export interface AttestationStatus {
  attestation_name: string;
  attestation_type: string;
  attestation_id: string | null;
  overridden_attestation_id: string | null;
  status: AttestationSlotStatus;
  /** Null while the slot is missing. */
  is_compliant: boolean | null;
  unexpected: boolean;
}

export interface ArtifactStatus {
  artifact_fingerprint: string | null;
  artifact_id: string | null;
  status: ArtifactSlotStatus;
  is_compliant: boolean;
  unexpected: boolean;
  evaluated_at: number;
  attestations_statuses: AttestationStatus[];
}

export interface ComplianceStatus {
  status: ComplianceState;
  is_compliant: boolean;
  evaluated_at: number;
  flow_template_id: string | null;
  attestations_statuses: AttestationStatus[];
  /** Keyed by template artifact name: the template's artifacts in order, then unexpected ones. */
  artifacts_statuses: Record<string, ArtifactStatus>;
}

export interface TrailEvaluation {
  compliance_status: ComplianceStatus;
  compliance_state: ComplianceState;
  is_compliant: boolean;
}

/** Whether a reported type can fill a template slot of `templateType`. */
export function typeFillsSlot(templateType: string, reportedType: string): boolean {
  if (templateType === '*' || templateType === reportedType) return true;
  return templateType === 'decision' && reportedType === 'system:decision';
}

/**
 * Evaluates a trail. `attestations` and `artifacts` are all the trail's stored rows in any order;
 * `evaluatedAt` is the time of the event that triggered the evaluation.
 *
 * An attestation bound to a template artifact that has not been attested yet (pre-binding by
 * commit) waits: it shows and counts once that artifact arrives.
 */
export function evaluateTrail(
  template: TrailTemplate | null | undefined,
  attestations: readonly TrailAttestation[],
  artifacts: readonly TrailArtifact[],
  evaluatedAt: number,
  flowTemplateId: string | null = null,
): TrailEvaluation {
  const templateAttestations = template?.trail?.attestations ?? [];
  const templateArtifacts = template?.trail?.artifacts ?? [];
  const currentArtifacts = latestArtifactPerSlot(artifacts);
  const trailLevel: TrailAttestation[] = [];
  const bySlot = new Map<string, TrailAttestation[]>();
  for (const attestation of oldestFirst(attestations)) {
    for (const slot of slotsOf(attestation, currentArtifacts)) {
      if (slot === null) trailLevel.push(attestation);
      else appendTo(bySlot, slot, attestation);
    }
  }

  const attestationsStatuses = scopeStatuses(templateAttestations, trailLevel);
  const artifactsStatuses: Record<string, ArtifactStatus> = {};
  const expected = new Set<string>();
  for (const slot of templateArtifacts) {
    expected.add(slot.name);
    artifactsStatuses[slot.name] = artifactStatus(
      slot.attestations ?? [],
      currentArtifacts.get(slot.name),
      bySlot.get(slot.name) ?? [],
      evaluatedAt,
      false,
    );
  }
  for (const [name, artifact] of currentArtifacts) {
    if (!expected.has(name))
      artifactsStatuses[name] = artifactStatus([], artifact, bySlot.get(name) ?? [], evaluatedAt, true);
  }

  const state = trailState(attestationsStatuses, Object.values(artifactsStatuses));
  const isCompliant = state === 'COMPLIANT';
  return {
    compliance_status: {
      status: state,
      is_compliant: isCompliant,
      evaluated_at: evaluatedAt,
      flow_template_id: flowTemplateId,
      attestations_statuses: attestationsStatuses,
      artifacts_statuses: artifactsStatuses,
    },
    compliance_state: state,
    is_compliant: isCompliant,
  };
}

function appendTo<T>(groups: Map<string, T[]>, key: string, item: T): void {
  const group = groups.get(key);
  if (group) group.push(item);
  else groups.set(key, [item]);
}

function oldestFirst<T extends { created_at: number }>(rows: readonly T[]): T[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => a.row.created_at - b.row.created_at || a.index - b.index)
    .map(({ row }) => row);
}

/** The artifact that fills each slot: the latest one attested under that template name. */
function latestArtifactPerSlot(artifacts: readonly TrailArtifact[]): Map<string, TrailArtifact> {
  const current = new Map<string, TrailArtifact>();
  for (const artifact of oldestFirst(artifacts)) current.set(artifact.template_reference_name, artifact);
  return current;
}

/** Where an attestation belongs: its target slot, the slots holding its fingerprint, or the trail (null). */
function slotsOf(
  attestation: TrailAttestation,
  currentArtifacts: ReadonlyMap<string, TrailArtifact>,
): Array<string | null> {
  if (attestation.target_artifact)
    return currentArtifacts.has(attestation.target_artifact) ? [attestation.target_artifact] : [];
  if (attestation.artifact_fingerprint) {
    const slots: string[] = [];
    for (const [slot, artifact] of currentArtifacts)
      if (artifact.fingerprint === attestation.artifact_fingerprint) slots.push(slot);
    return slots;
  }
  return [null];
}

/** Statuses of one scope (the trail, or one artifact): template slots in order, then unexpected reports. */
function scopeStatuses(
  slots: readonly TemplateAttestation[],
  reported: readonly TrailAttestation[],
): AttestationStatus[] {
  const statuses: AttestationStatus[] = [];
  const used = new Set<TrailAttestation>();
  const byName = new Map<string, TrailAttestation[]>();
  for (const attestation of reported) appendTo(byName, attestation.name, attestation);
  for (const slot of slots) {
    const filling = (byName.get(slot.name) ?? []).filter((attestation) => typeFillsSlot(slot.type, attestation.type));
    filling.forEach((attestation) => used.add(attestation));
    statuses.push(filling.length === 0 ? missing(slot) : effective(filling, false));
  }
  const unexpected = new Map<string, TrailAttestation[]>();
  for (const attestation of reported) {
    if (used.has(attestation)) continue;
    appendTo(unexpected, JSON.stringify([attestation.name, attestation.type]), attestation);
  }
  for (const versions of unexpected.values()) statuses.push(effective(versions, true));
  return statuses;
}

function missing(slot: TemplateAttestation): AttestationStatus {
  return {
    attestation_name: slot.name,
    attestation_type: slot.type,
    attestation_id: null,
    overridden_attestation_id: null,
    status: 'MISSING',
    is_compliant: null,
    unexpected: false,
  };
}

/** The latest version counts; an override points at the latest plain version before it. */
function effective(versions: readonly TrailAttestation[], unexpected: boolean): AttestationStatus {
  const latest = versions[versions.length - 1];
  let overridden: TrailAttestation | undefined;
  if (latest.is_override) overridden = versions.slice(0, -1).findLast((version) => !version.is_override);
  return {
    attestation_name: latest.name,
    attestation_type: latest.type,
    attestation_id: latest.id,
    overridden_attestation_id: overridden?.id ?? null,
    status: 'COMPLETE',
    is_compliant: latest.is_compliant,
    unexpected,
  };
}

function artifactStatus(
  slots: readonly TemplateAttestation[],
  artifact: TrailArtifact | undefined,
  reported: readonly TrailAttestation[],
  evaluatedAt: number,
  unexpected: boolean,
): ArtifactStatus {
  if (!artifact) {
    return {
      artifact_fingerprint: null,
      artifact_id: null,
      status: 'MISSING',
      is_compliant: false,
      unexpected,
      evaluated_at: evaluatedAt,
      attestations_statuses: slots.map(missing),
    };
  }
  const statuses = scopeStatuses(slots, reported);
  const status = scopeState(statuses);
  return {
    artifact_fingerprint: artifact.fingerprint,
    artifact_id: artifact.id,
    status,
    is_compliant: status === 'COMPLIANT',
    unexpected,
    evaluated_at: evaluatedAt,
    attestations_statuses: statuses,
  };
}

function scopeState(statuses: readonly AttestationStatus[]): ComplianceState {
  if (statuses.some((status) => status.is_compliant === false)) return 'NON-COMPLIANT';
  if (statuses.some((status) => status.status === 'MISSING')) return 'INCOMPLETE';
  return 'COMPLIANT';
}

function trailState(attestations: readonly AttestationStatus[], artifacts: readonly ArtifactStatus[]): ComplianceState {
  const own = scopeState(attestations);
  if (own === 'NON-COMPLIANT' || artifacts.some((artifact) => artifact.status === 'NON-COMPLIANT'))
    return 'NON-COMPLIANT';
  if (own === 'INCOMPLETE' || artifacts.some((artifact) => artifact.status !== 'COMPLIANT')) return 'INCOMPLETE';
  return 'COMPLIANT';
}
