// A trail as display data (design §10): every template slot with its status and the reason for
// it, the artifacts, the commit, origin, user data and events. Input is the API's Trail object
// (and optionally the trail's attestations, for names of what made a slot non-compliant); its
// events read as events.ts tells them.

import { trailVerdict, verdictOf, type Verdict } from '../compliance/vocabulary.ts';
import { eventDisplay, type EventDisplay } from './events.ts';
import {
  externalUrlsOf,
  isRecord,
  listOf,
  prettyJson,
  textOf,
  timeOf,
  urlDisplay,
  type ViewRef,
  type ViewUrl,
} from './links.ts';

export interface SlotDisplay {
  /** The template artifact the slot belongs to, or null for a trail-level slot. */
  artifact: string | null;
  name: string;
  type: string;
  /** MISSING, or the verdict of the attestation that fills it; its reason says why in words. */
  status: Verdict;
  unexpected: boolean;
  attestation: ViewRef | null;
  overridden: ViewRef | null;
}

export interface ArtifactSlotDisplay {
  name: string;
  /** MISSING, or the artifact's verdict in the trail; its reason says why. */
  status: Verdict;
  fingerprint: string | null;
  unexpected: boolean;
  ref: ViewRef | null;
}

export interface TrailDisplay {
  title: string;
  flow: string;
  description: string;
  status: Verdict;
  isCompliant: boolean;
  createdAt: string | null;
  createdBy: string;
  slots: SlotDisplay[];
  artifacts: ArtifactSlotDisplay[];
  commit: { sha: string; message: string; author: string; branch: string; url: ViewUrl | null } | null;
  origin: ViewUrl | null;
  externalUrls: ViewUrl[];
  userData: string | null;
  events: EventDisplay[];
}

/** The trail's attestations as the API lists them, for the names behind a verdict. */
export interface AttestationSummary {
  attestation_id: string;
  attestation_name: string;
  attestation_type?: string;
  is_compliant?: boolean;
  /** Why it fails its type's rule, in words (shared/compliance/reasons.ts), when it was read. */
  reasons?: string[];
  /** An override's own reason for the verdict it sets. */
  override_reason?: string;
}

/** The attestations a trail's compliance status names: the ones whose verdicts its slots show. */
export function slotAttestationIds(trail: Record<string, unknown>): Set<string> {
  const status = isRecord(trail.compliance_status) ? trail.compliance_status : {};
  const artifacts = isRecord(status.artifacts_statuses)
    ? Object.values(status.artifacts_statuses).filter(isRecord)
    : [];
  return new Set(
    [status, ...artifacts]
      .flatMap((entry) => listOf(entry.attestations_statuses))
      .map((entry) => entry.attestation_id)
      .filter((id): id is string => typeof id === 'string'),
  );
}

export function trailDisplay(
  trail: Record<string, unknown>,
  attestations: readonly AttestationSummary[] = [],
): TrailDisplay {
  const flow = isRecord(trail.flow) ? textOf(trail.flow.name) : textOf(trail.flow_name);
  const name = textOf(trail.name);
  const status = isRecord(trail.compliance_status) ? trail.compliance_status : {};
  const byId = new Map(attestations.map((attestation) => [attestation.attestation_id, attestation]));
  const slots = listOf(status.attestations_statuses).map((entry) => slotDisplay(entry, null, flow, name, byId));
  const artifacts: ArtifactSlotDisplay[] = [];
  if (isRecord(status.artifacts_statuses)) {
    for (const [artifactName, entry] of Object.entries(status.artifacts_statuses)) {
      if (!isRecord(entry)) continue;
      const own = listOf(entry.attestations_statuses).map((slot) => slotDisplay(slot, artifactName, flow, name, byId));
      artifacts.push(artifactSlotDisplay(artifactName, entry, own, flow, name));
      slots.push(...own);
    }
  }
  const verdict = trailVerdict(trail.compliance_state ?? status.status);
  return {
    title: name,
    flow,
    description: textOf(trail.description),
    status:
      verdict.state === 'COMPLIANT' || verdict.state === 'UNKNOWN'
        ? verdict
        : { ...verdict, reason: failingSlots(slots) || verdict.reason },
    isCompliant: trail.is_compliant === true,
    createdAt: timeOf(trail.created_at),
    createdBy: textOf(trail.created_by),
    slots,
    artifacts,
    commit: commitDisplay(trail.git_commit_info),
    origin: urlDisplay('origin', trail.origin_url),
    externalUrls: externalUrlsOf(trail.external_urls),
    userData: prettyJson(trail.user_data),
    events: listOf(trail.events).map((event) => eventDisplay(event, { flow, trail: name })),
  };
}

function slotDisplay(
  entry: Record<string, unknown>,
  artifact: string | null,
  flow: string,
  trail: string,
  byId: Map<string, AttestationSummary>,
): SlotDisplay {
  const id = typeof entry.attestation_id === 'string' ? entry.attestation_id : null;
  const overriddenId = typeof entry.overridden_attestation_id === 'string' ? entry.overridden_attestation_id : null;
  const name = textOf(entry.attestation_name);
  const type = textOf(entry.attestation_type);
  const unexpected = entry.unexpected === true;
  const state =
    entry.status === 'MISSING' || id === null ? 'MISSING' : entry.is_compliant === true ? 'COMPLIANT' : 'NON-COMPLIANT';
  return {
    artifact,
    name,
    type,
    status: verdictOf(state, slotReason(state, name, type, id, overriddenId, unexpected, byId)),
    unexpected,
    attestation: id === null ? null : { kind: 'attestation', flow, trail, attestationId: id },
    overridden: overriddenId === null ? null : { kind: 'attestation', flow, trail, attestationId: overriddenId },
  };
}

/** Names in a sentence: "a", "a and b", "a, b and c". */
function named(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The slots that keep a trail (or an artifact) from being compliant, counted and named. */
function failingSlots(slots: readonly SlotDisplay[]): string {
  const of = (state: string) => slots.filter((slot) => slot.status.state === state).map((slot) => slot.name);
  const failing = of('NON-COMPLIANT');
  const missing = of('MISSING');
  const attestations = (count: number) => (count === 1 ? '1 attestation' : `${count} attestations`);
  return [
    failing.length === 0
      ? ''
      : `${attestations(failing.length)} ${failing.length === 1 ? 'fails' : 'fail'}: ${named(failing)}.`,
    missing.length === 0
      ? ''
      : `${failing.length === 0 ? attestations(missing.length) : missing.length} ${missing.length === 1 ? 'is' : 'are'} not reported yet: ${named(missing)}.`,
  ]
    .filter(Boolean)
    .join(' ');
}

/** Why a slot has its state, in words: what is missing, the failing condition, the override's reason. */
function slotReason(
  status: 'MISSING' | 'COMPLIANT' | 'NON-COMPLIANT',
  name: string,
  type: string,
  id: string | null,
  overriddenId: string | null,
  unexpected: boolean,
  byId: Map<string, AttestationSummary>,
): string {
  const prefix = unexpected ? 'Not in the template; ' : '';
  if (status === 'MISSING')
    return `${prefix}no ${type === '*' || type === '' ? '' : `${type} `}attestation named ${name} has been reported`;
  const reported = byId.get(id!);
  const verdict = status === 'COMPLIANT' ? 'compliant' : 'non-compliant';
  if (overriddenId !== null) {
    const why =
      reported?.override_reason === undefined || reported.override_reason === '' ? '' : `: ${reported.override_reason}`;
    return `${prefix}overridden as ${verdict}${why}`;
  }
  const kind = reported?.attestation_type ?? type;
  if (status === 'NON-COMPLIANT' && reported?.reasons !== undefined && reported.reasons.length > 0)
    return `${prefix}${reported.reasons.join('; ')}`;
  return `${prefix}the ${kind} attestation ${reported?.attestation_name ?? name} is ${verdict}`;
}

function artifactSlotDisplay(
  name: string,
  entry: Record<string, unknown>,
  own: readonly SlotDisplay[],
  flow: string,
  trail: string,
): ArtifactSlotDisplay {
  const fingerprint = typeof entry.artifact_fingerprint === 'string' ? entry.artifact_fingerprint : null;
  const status =
    entry.status === 'MISSING' || fingerprint === null
      ? 'MISSING'
      : entry.status === 'NON-COMPLIANT'
        ? 'NON-COMPLIANT'
        : entry.status === 'INCOMPLETE'
          ? 'INCOMPLETE'
          : 'COMPLIANT';
  const unexpected = entry.unexpected === true;
  const why =
    status === 'MISSING'
      ? `no artifact has been attested as ${name}`
      : status === 'COMPLIANT'
        ? 'every attestation of the artifact is in place and compliant'
        : failingSlots(own) ||
          (status === 'INCOMPLETE'
            ? 'an attestation the template asks of the artifact is missing'
            : 'an attestation of the artifact is non-compliant');
  return {
    name,
    status: verdictOf(status, unexpected ? `Not in the template; ${why}` : why),
    fingerprint,
    unexpected,
    ref: fingerprint === null ? null : { kind: 'artifact', flow, fingerprint, trail },
  };
}

function commitDisplay(value: unknown): TrailDisplay['commit'] {
  if (!isRecord(value)) return null;
  return {
    sha: textOf(value.sha1 ?? value.sha),
    message: textOf(value.message),
    author: textOf(value.author),
    branch: textOf(value.branch),
    url: urlDisplay('commit', value.url),
  };
}
