// A trail's audit package and audit report (reference §2.2): one gzip-compressed tar archive
// holding the trail as the API shows it, every attestation of the trail, and each attestation's
// evidence file, so an auditor gets the whole record of one trail in one download (streamed as it
// is packed); and the same record as a readable PDF report.
import { createGzip } from 'node:zlib';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { pack } from 'tar-stream';
import { orgOf } from '../auth.ts';
import type { RouteOptions } from '../context.ts';
import { flowOr404, trailOr404 } from '../../services/lookups.ts';
import { attestationView } from '../../views/attestationView.ts';
import { trailView } from '../../views/trailView.ts';
import { pdfOfLines } from '../../views/auditPdf.ts';
import { trailParams } from './params.ts';
import type { trail as trailContract } from '../../../../shared/contract/flows.ts';

/** A trail as the API answers it (the wire contract's Trail), which the report reads. */
type TrailAnswer = FromSchema<typeof trailContract>;

interface TrailPath {
  org: string;
  flow: string;
  trail: string;
}

/** A file name kept to one safe path segment. */
function segment(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || '_';
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
      // Everything is read before the first byte is sent, so a failure is still a JSON error.
      const trailJson = JSON.stringify(await trailView(store, host, org.name, flow, trail), null, 2);
      const attestations = await store.attestations.inTrail(trail.id);
      const evidence: Array<{ path: string; bytes: Buffer }> = [];
      const missing: string[] = [];
      for (const attestation of attestations) {
        if (attestation.evidence === null) continue;
        const bytes = await store.evidence.get(attestation.evidence.sha256);
        if (bytes !== undefined)
          evidence.push({
            path: `evidence/${segment(attestation.name)}/${attestation.id}/${segment(attestation.evidence.filename)}`,
            bytes,
          });
        else
          missing.push(
            `${attestation.name} ${attestation.id}: ${attestation.evidence.filename} (sha256 ${attestation.evidence.sha256})`,
          );
      }
      // A lost file leaves the package complete otherwise, and says which and how to get it back.
      if (missing.length > 0) {
        const note = [
          "These attestations' evidence files are missing from the server's evidence directory; restore them from a backup of that directory:",
          ...missing,
          '',
        ];
        evidence.push({ path: 'evidence/MISSING.txt', bytes: Buffer.from(note.join('\n')) });
      }
      const archive = pack();
      const mtime = new Date(trail.lastModifiedAt * 1000);
      archive.entry({ name: 'trail.json', mtime }, trailJson);
      archive.entry(
        { name: 'attestations.json', mtime },
        JSON.stringify(
          attestations.map((attestation) => attestationView(host, org.name, attestation)),
          null,
          2,
        ),
      );
      for (const file of evidence) archive.entry({ name: file.path, mtime }, file.bytes);
      archive.finalize();
      const filename = `${segment(flow.name)}-${segment(trail.name)}-audit-package.tgz`;
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(archive.pipe(createGzip()));
    },
  );

  app.get<{ Params: TrailPath }>(
    '/trails/:org/:flow/:trail/audit_pdf',
    { schema: { params: trailParams } },
    async (request, reply) => {
      const { org, flow, trail } = await trailOf(request);
      // The view the trail endpoint answers with, which the contract tests hold to Trail.
      const view = (await trailView(store, context.publicUrl(), org.name, flow, trail)) as TrailAnswer;
      const attestations = await store.attestations.inTrail(trail.id);
      const filename = `${segment(flow.name)}-${segment(trail.name)}-audit.pdf`;
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(pdfOfLines(auditReportLines(org.name, flow.name, view, attestations)));
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
