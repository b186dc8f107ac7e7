// Attestation objects (reference §2.3) and the flow-level record of spec endpoint 5.
import { snykSummaryOf } from '../../../shared/compliance/index.ts';
import type {
  Attestation as AttestationAnswer,
  AttestationsByCommit,
  FlowAttestationRecord,
} from '../../../shared/contract/types.ts';
import type { Attestation, CommitAttestation } from '../store/attestations.ts';
import { commitInfoView } from './commitInfo.ts';
import { apiUrl, htmlUrl } from './urls.ts';

const SCHEMA_VERSION = 1;

/** The reported fields an answer shows as they were sent (checked by the attestation schemas). */
type SentFields = {
  [
    Field in
      | 'origin_url'
      | 'description'
      | 'target_artifacts'
      | 'git_commit_info'
      | 'repo_info'
      | 'user_data'
      | 'annotations'
      | 'external_urls'
  ]?: AttestationAnswer[Field] | null;
};

function attestationTypeOf(attestation: Attestation): string {
  return attestation.isOverride ? 'override' : attestation.type;
}

export function attestationView(host: string, orgName: string, attestation: Attestation): AttestationAnswer {
  const body: SentFields & Record<string, unknown> = attestation.body;
  const links: Record<string, { href: string }> = { self: { href: apiUrl.attestation(host, orgName, attestation.id) } };
  if (attestation.evidence !== null) {
    links.evidence = {
      href: apiUrl.evidence(host, orgName, attestation.flowName, attestation.trailName, attestation.id),
    };
  }
  return {
    ...body,
    schema_version: SCHEMA_VERSION,
    attestation_type: attestationTypeOf(attestation),
    attestation_name: attestation.name,
    attestation_id: attestation.id,
    is_compliant: attestation.isCompliant,
    origin_url: body.origin_url ?? null,
    description: body.description ?? null,
    artifact_fingerprint: attestation.artifactFingerprint,
    target_artifacts: body.target_artifacts ?? [],
    git_commit_info: commitInfoView(body.git_commit_info),
    repo_info: body.repo_info ?? null,
    user_data: body.user_data ?? {},
    annotations: body.annotations ?? {},
    external_urls: body.external_urls ?? {},
    evidence_archive_path:
      attestation.evidence === null ? null : `evidence/${attestation.evidence.sha256}/${attestation.evidence.filename}`,
    evidence_archive_fingerprint: attestation.evidence?.sha256 ?? null,
    has_audit_package: attestation.evidence !== null,
    processed_snyk_results: attestation.type === 'snyk' ? snykSummaryOf(body) : null,
    created_at: attestation.createdAt,
    reported_by: attestation.reportedBy,
    flow_name: attestation.flowName,
    trail_name: attestation.trailName,
    html_url: htmlUrl.attestation(host, orgName, attestation.flowName, attestation.trailName, attestation.id),
    _links: links,
  };
}

export function flowAttestationRecord(host: string, orgName: string, attestation: Attestation): FlowAttestationRecord {
  const body: SentFields = attestation.body;
  return {
    attestation_id: attestation.id,
    attestation_name: attestation.name,
    attestation_type: attestationTypeOf(attestation),
    created_at: attestation.createdAt,
    description: body.description ?? '',
    has_audit_package: attestation.evidence !== null,
    html_url: htmlUrl.attestation(host, orgName, attestation.flowName, attestation.trailName, attestation.id),
    is_compliant: attestation.isCompliant,
    origin_url: body.origin_url ?? '',
    reported_by: attestation.reportedBy,
    schema_version: SCHEMA_VERSION,
    trail_name: attestation.trailName,
    user_data: body.user_data ?? {},
  };
}

/** Attestations under the commit each speaks about, in the order given (reference §8.4). */
export function attestationsByCommit(attestations: readonly CommitAttestation[]): AttestationsByCommit {
  const byCommit: AttestationsByCommit = {};
  for (const attestation of attestations) {
    (byCommit[attestation.commit] ??= []).push({
      attestation_id: attestation.id,
      attestation_name: attestation.name,
      attestation_type: attestationTypeOf(attestation),
      is_compliant: attestation.isCompliant,
      ...(attestation.artifactFingerprint === null ? {} : { artifact_fingerprint: attestation.artifactFingerprint }),
      ...(attestation.slot === null ? {} : { target_artifact: attestation.slot }),
      created_at: attestation.createdAt,
      flow_name: attestation.flowName,
      trail_name: attestation.trailName,
    });
  }
  return byCommit;
}
