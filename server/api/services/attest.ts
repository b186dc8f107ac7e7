// Recording an attestation of any type (reference §2.3): resolve what it is about, check the body
// with the shared core, decide its compliance with the shared rules, write its evidence, then its
// row, its trail event and the webhook deliveries it calls for in one transaction.
import { isAttestationCompliant } from '../../../shared/compliance/index.ts';
import {
  checkAttestation,
  checkScanAttestation,
  commitOrFingerprintRequired,
  type AttestationKind,
} from '../../../shared/payloads/index.ts';
import { fieldErrorsOf } from '../fieldErrors.ts';
import { invalid } from '../errors.ts';
import { artifactNotInTrail } from '../notFound.ts';
import { nowSeconds } from '../clock.ts';
import { newId } from '../ids.ts';
import type { UploadedFile } from '../uploads.ts';
import { attestationDeliveries } from '../delivery/notifications.ts';
import type { Attestation, Evidence } from '../store/attestations.ts';
import type { EvidenceHold } from '../store/evidence.ts';
import type { Store } from '../store/index.ts';
import type { Org } from '../store/orgs.ts';
import type { OutboxDelivery } from '../store/outbox.ts';
import type { ServiceDeps } from './index.ts';
import { trailPlaceOr404 } from './lookups.ts';
import { customDataIssues, customRulesPassed, customSummary, customTypeNamed } from '../rules/customTypes.ts';

export type UrlKind = 'scan' | AttestationKind;

export interface AttestRequest {
  org: Org;
  flowName: string;
  trailName: string;
  kind: UrlKind;
  data: unknown;
  attachment: UploadedFile | undefined;
  reportedBy: string;
}

function checked(kind: UrlKind, data: unknown): Record<string, unknown> {
  const issues = kind === 'scan' ? checkScanAttestation(data) : checkAttestation(kind, data);
  const errors = fieldErrorsOf(issues, data, 'data_json');
  if (Object.keys(errors).length === 0) return data as Record<string, unknown>;
  // The hosted service checks this rule on the whole payload, so its text is the message clients
  // match (reference §1.2), not only one field's error.
  const unbound = issues.find(
    (issue) => issue.severity === 'error' && issue.message.includes(commitOrFingerprintRequired),
  );
  throw invalid(errors, unbound?.message);
}

/** The stored `attestation_type`, the verdict and, for a custom type with one, the summary's values. */
async function typeAndVerdict(
  store: Store,
  org: Org,
  kind: UrlKind,
  data: Record<string, unknown>,
): Promise<{ type: string; isCompliant: boolean; summary?: ReturnType<typeof customSummary> }> {
  switch (kind) {
    case 'custom': {
      const type = await customTypeNamed(store, org, String(data.type_name));
      const errors = fieldErrorsOf(customDataIssues(type, data.attestation_data), data, 'data_json');
      if (Object.keys(errors).length > 0) throw invalid(errors);
      const rulesPassed = customRulesPassed(type, data.attestation_data);
      const summary =
        type.summary === null || type.summary.length === 0 ? undefined : customSummary(type, data.attestation_data);
      return {
        type: `custom:${type.name}`,
        isCompliant: isAttestationCompliant(`custom:${type.name}`, data, { customRulesPassed: rulesPassed }),
        summary,
      };
    }
    case 'system':
      return { type: 'system:decision', isCompliant: isAttestationCompliant('system:decision', data) };
    case 'override':
      return { type: String(data.original_attestation_type), isCompliant: isAttestationCompliant('override', data) };
    default:
      return { type: kind, isCompliant: isAttestationCompliant(kind, data) };
  }
}

/** The write's result, once `held` is settled with whether it committed. */
async function settling<T>(held: EvidenceHold | undefined, write: Promise<T>): Promise<T> {
  try {
    const result = await write;
    await held?.settle(true);
    return result;
  } catch (error) {
    await held?.settle(false);
    throw error;
  }
}

/**
 * Records the attestation in its trail (404 for a flow or trail that does not exist, before the
 * body is checked) with the deliveries of the flow's ON_ATTESTATION actions; the caller wakes the
 * deliverer once it has committed.
 */
export async function recordAttestation(
  deps: Pick<ServiceDeps, 'store' | 'publicUrl'>,
  request: AttestRequest,
): Promise<{ attestation: Attestation; deliveries: OutboxDelivery[] }> {
  const { store } = deps;
  const place = await trailPlaceOr404(store, request.org, request.flowName, request.trailName, 'ON_ATTESTATION');
  const data = checked(request.kind, request.data);
  const { type, isCompliant, summary } = await typeAndVerdict(store, request.org, request.kind, data);
  const fingerprint = typeof data.artifact_fingerprint === 'string' ? data.artifact_fingerprint : null;
  const targets = Array.isArray(data.target_artifacts) ? (data.target_artifacts as string[]) : [];
  const targetArtifact = targets[0] ?? null;
  // The artifact slot an artifact's attestation names; undefined for the trail's own.
  let slot: string | undefined = targetArtifact ?? undefined;
  if (fingerprint !== null) {
    const artifact = (await store.artifacts.inTrail(place.trailId)).find((found) => found.fingerprint === fingerprint);
    if (artifact === undefined)
      throw artifactNotInTrail(request.org.name, place.flowName, place.trailName, fingerprint);
    slot ??= artifact.templateReferenceName;
  }

  // The file is complete on disk before the row that points to it; if the row then fails, a file
  // only this write needed goes again, so a refused request leaves nothing behind.
  const held = request.attachment === undefined ? undefined : await store.evidence.put(request.attachment.bytes);
  const evidence: Evidence | null =
    held === undefined ? null : { sha256: held.sha256, filename: request.attachment?.filename || 'evidence' };
  // A concurrent transaction (store/db.ts) that only writes: what was checked above (the flow
  // live, the trail and the artifact there) only archiving the flow undoes, and an attestation
  // that races an archive lands as it would have a moment before it; nothing it writes is checked
  // by another write (its webhook deliveries are rows only the deliverer reads).
  return await settling(
    held,
    store.transaction(
      async () => {
        const now = nowSeconds();
        const attestation: Attestation = {
          id: newId(),
          orgId: request.org.id,
          flowId: place.flowId,
          trailId: place.trailId,
          name: String(data.attestation_name),
          type,
          isOverride: request.kind === 'override',
          isCompliant,
          artifactFingerprint: fingerprint,
          targetArtifact,
          evidence,
          // The summary is evaluated once, against the type version the attestation was checked with.
          body: summary === undefined ? data : { ...data, summary },
          reportedBy: request.reportedBy,
          createdAt: now,
          flowName: place.flowName,
          trailName: place.trailName,
        };
        const deliveries = await attestationDeliveries(deps, request.org, place.triggered, attestation);
        await store.attestations.create(attestation);
        const attestationType = request.kind === 'override' ? 'override' : type;
        const common = {
          git_commit_info: data.git_commit_info ?? null,
          repo_info: data.repo_info ?? null,
          attestation_type: attestationType,
          template_reference_name: attestation.name,
          attestation_id: attestation.id,
          is_compliant: isCompliant,
        };
        if (slot !== undefined) {
          await store.trails.appendEvent(place.trailId, {
            type: 'artifact_attestation_reported',
            timestamp: now,
            ...common,
            target_artifact: slot,
          });
        } else {
          await store.trails.appendEvent(place.trailId, {
            type: 'trail_attestation_reported',
            timestamp: now,
            ...common,
          });
        }
        return { attestation, deliveries };
      },
      // The flow's count of attestations, then the trail's row: locked in this order by every commit.
      { concurrent: true, lockOrder: `${place.flowId} ${place.trailId}` },
    ),
  );
}
