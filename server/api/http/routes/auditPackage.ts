// A trail's audit package (reference §2.2): one gzip-compressed tar archive holding the trail as
// the API shows it, every attestation of the trail, and each attestation's evidence file, so an
// auditor gets the whole record of one trail in one download. Streamed as it is packed.
import { createGzip } from 'node:zlib';
import type { FastifyPluginAsync } from 'fastify';
import { pack } from 'tar-stream';
import { orgOf } from '../auth.ts';
import type { RouteOptions } from '../context.ts';
import { flowOr404, trailOr404 } from '../../services/lookups.ts';
import { attestationView } from '../../views/attestationView.ts';
import { trailView } from '../../views/trailView.ts';
import { trailParams } from './params.ts';

/** A file name kept to one safe path segment. */
function segment(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || '_';
}

export const auditPackageRoutes: FastifyPluginAsync<RouteOptions> = async (app, { context }) => {
  const { store } = context;

  app.get<{ Params: { org: string; flow: string; trail: string } }>(
    '/trails/:org/:flow/:trail/audit_package',
    { schema: { params: trailParams } },
    async (request, reply) => {
      const org = orgOf(request);
      const flow = await flowOr404(store, org, request.params.flow);
      const trail = await trailOr404(store, org, flow, request.params.trail);
      const host = context.publicUrl();
      // Everything is read before the first byte is sent, so a failure is still a JSON error.
      const trailJson = JSON.stringify(await trailView(store, host, org.name, flow, trail), null, 2);
      const attestations = await store.attestations.inTrail(trail.id);
      const evidence: Array<{ path: string; bytes: Buffer }> = [];
      for (const attestation of attestations) {
        if (attestation.evidence === null) continue;
        const bytes = await store.evidence.get(attestation.evidence.sha256);
        if (bytes !== undefined) evidence.push({ path: `evidence/${segment(attestation.name)}/${attestation.id}/${segment(attestation.evidence.filename)}`, bytes });
      }
      const archive = pack();
      const mtime = new Date(trail.lastModifiedAt * 1000);
      archive.entry({ name: 'trail.json', mtime }, trailJson);
      archive.entry({ name: 'attestations.json', mtime }, JSON.stringify(attestations.map((attestation) => attestationView(host, org.name, attestation)), null, 2));
      for (const file of evidence) archive.entry({ name: file.path, mtime }, file.bytes);
      archive.finalize();
      const filename = `${segment(flow.name)}-${segment(trail.name)}-audit-package.tgz`;
      return reply.type('application/gzip').header('content-disposition', `attachment; filename="${filename}"`).send(archive.pipe(createGzip()));
    },
  );
};
