// The lines of a trail's audit report (reference §2.2 audit_pdf), which views/auditPdf.ts sets on
// pages: the trail as the API answers it, its verdict slot by slot, its attestations and events.
import type { Trail as TrailAnswer } from '../../../shared/contract/types.ts';

const when = (seconds: unknown): string => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : '-');

/** The report's lines: the trail, its verdict slot by slot, its attestations and its events. */
export function auditReportLines(
  org: string,
  flow: string,
  view: TrailAnswer,
  attestations: ReadonlyArray<{
    name: string;
    type: string;
    isCompliant: boolean | null;
    createdAt: number;
    reportedBy: string;
    evidence: { filename: string; sha256: string } | null;
  }>,
): string[] {
  const status = view.compliance_status;
  const lines = [
    `Audit report: trail ${view.name} of flow ${flow} (organization ${org})`,
    `Compliance: ${view.compliance_state}    Created: ${when(view.created_at)} by ${view.created_by}    Last modified: ${when(view.last_modified_at)}`,
  ];
  if (view.git_commit_info?.sha1)
    lines.push(
      `Commit: ${view.git_commit_info.sha1} ${view.git_commit_info.branch ?? ''} ${view.git_commit_info.message ?? ''}`,
    );
  if (view.origin_url) lines.push(`Origin: ${view.origin_url}`);
  lines.push('', 'Trail attestations (template slots):');
  for (const slot of status.attestations_statuses)
    lines.push(`  ${slot.attestation_name} (${slot.attestation_type ?? '-'}): ${slot.status}`);
  for (const [name, artifact] of Object.entries(status.artifacts_statuses)) {
    lines.push(
      `Artifact ${name}: ${artifact.status}${artifact.artifact_fingerprint ? ` sha256:${artifact.artifact_fingerprint}` : ''}`,
    );
    for (const slot of artifact.attestations_statuses ?? [])
      lines.push(`  ${slot.attestation_name} (${slot.attestation_type ?? '-'}): ${slot.status}`);
  }
  lines.push('', `Attestations recorded (${attestations.length}):`);
  for (const attestation of attestations) {
    const verdict =
      attestation.isCompliant === null ? 'no verdict' : attestation.isCompliant ? 'compliant' : 'NOT compliant';
    const evidence =
      attestation.evidence === null
        ? ''
        : `, evidence ${attestation.evidence.filename} sha256:${attestation.evidence.sha256}`;
    lines.push(
      `  ${when(attestation.createdAt)} ${attestation.name} (${attestation.type}): ${verdict}, by ${attestation.reportedBy}${evidence}`,
    );
  }
  lines.push('', 'Events:');
  for (const event of view.events ?? []) lines.push(`  ${when(event.timestamp)} ${event.type}`);
  return lines;
}
