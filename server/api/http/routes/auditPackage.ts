// A trail's audit package and audit report (reference §2.2): one gzip-compressed tar archive
// holding the trail as the API shows it, every attestation of the trail, and each attestation's
// evidence file, so an auditor gets the whole record of one trail in one download (streamed as it
// is packed); and the same record as a readable PDF report.
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { orgOf } from '../auth.ts';
import { sendDownload } from '../downloads.ts';
import type { RouteOptions } from '../context.ts';
import { flowOr404, trailOr404 } from '../../services/lookups.ts';
import { attestationView } from '../../views/attestationView.ts';
import { trailAnswerOf } from '../../services/trailRendering.ts';
import { pdfOfLines } from '../../views/auditPdf.ts';
import { auditPackageOf, segment } from '../../views/auditPackage.ts';
import { trailParams } from './params.ts';
import type { trail as trailContract } from '../../../../shared/contract/flows.ts';

/** A trail as the API answers it (the wire contract's Trail), which the report reads. */
type TrailAnswer = FromSchema<typeof trailContract>;

interface TrailPath {
  org: string;
  flow: string;
  trail: string;
}

export const auditPackageRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  /** The org, flow and trail the path names, with the service's not-found messages. */
  const trailOf = async (request: FastifyRequest<{ Params: TrailPath }>) => {
    const org = orgOf(request);
    const flow = await flowOr404(store, org, request.params.flow);
    return { org, flow, trail: await trailOr404(store, org, flow, request.params.trail) };
  };

  app.get<{ Params: TrailPath }>(
    '/trails/:org/:flow/:trail/audit_package',
    { schema: { params: trailParams } },
    async (request, reply) => {
      const { org, flow, trail } = await trailOf(request);
      const host = context.publicUrl();
      // The documents are read before the first byte is sent, so a failure there is still a JSON
      // error; the evidence files are read as the package is.
      const trailJson = JSON.stringify(await trailAnswerOf(store, host, org.name, flow, trail), null, 2);
      const attestations = await store.attestations.inTrail(trail.id);
      const attestationsJson = JSON.stringify(
        attestations.map((attestation) => attestationView(host, org.name, attestation)),
        null,
        2,
      );
      const evidence = attestations.flatMap(({ name, id, evidence: file }) =>
        file === null
          ? []
          : [
              {
                path: `evidence/${segment(name)}/${id}/${segment(file.filename)}`,
                sha256: file.sha256,
                missingLine: `${name} ${id}: ${file.filename} (sha256 ${file.sha256})`,
              },
            ],
      );
      return sendDownload(reply, {
        type: 'application/gzip',
        filename: `${segment(flow.name)}-${segment(trail.name)}-audit-package.tgz`,
        content: auditPackageOf({
          mtime: new Date(trail.lastModifiedAt * 1000),
          documents: [
            { path: 'trail.json', text: trailJson },
            { path: 'attestations.json', text: attestationsJson },
          ],
          evidence,
          open: (sha256) => store.evidence.open(sha256),
        }),
      });
    },
  );

  app.get<{ Params: TrailPath }>(
    '/trails/:org/:flow/:trail/audit_pdf',
    { schema: { params: trailParams } },
    async (request, reply) => {
      const { org, flow, trail } = await trailOf(request);
      // The view the trail endpoint answers with, which the contract tests hold to Trail.
      const view = await trailAnswerOf(store, context.publicUrl(), org.name, flow, trail);
      const attestations = await store.attestations.inTrail(trail.id);
      return sendDownload(reply, {
        type: 'application/pdf',
        filename: `${segment(flow.name)}-${segment(trail.name)}-audit.pdf`,
        content: pdfOfLines(auditReportLines(org.name, flow.name, view, attestations)),
      });
    },
  );
  done();
};

const when = (seconds: unknown): string => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : '-');

/** The report's lines: the trail, its verdict slot by slot, its attestations and its events. */
function auditReportLines(
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
