// A trail's audit package (.tgz) and audit report (PDF), reference §2.2, and an artifact's audit
// package (§8.4): each a download streamed as it is packed.
import { orgOf } from '../auth.ts';
import { sendDownload } from '../downloads.ts';
import type { RoutePlugin } from '../context.ts';
import { HEX_PREFIX } from '../names.ts';
import { trailParams } from './params.ts';

const artifactParams = {
  type: 'object',
  required: ['org', 'flow_name', 'fingerprint'],
  properties: {
    org: { type: 'string' },
    flow_name: { type: 'string' },
    fingerprint: { type: 'string', pattern: HEX_PREFIX },
  },
} as const;

export const auditPackageRoutes: RoutePlugin = (app, { services }, done) => {
  app.get('/trails/:org/:flow/:trail/audit_package', { schema: { params: trailParams } }, async (request, reply) => {
    const { flow, trail } = request.params;
    const file = await services.auditPackages.packageOf(orgOf(request), flow, trail);
    return sendDownload(reply, { type: 'application/gzip', ...file });
  });

  app.get(
    '/artifacts/:org/:flow_name/:fingerprint/audit_package',
    { schema: { params: artifactParams } },
    async (request, reply) => {
      const { flow_name: flow, fingerprint } = request.params;
      const file = await services.auditPackages.artifactPackageOf(orgOf(request), flow, fingerprint);
      return sendDownload(reply, { type: 'application/gzip', ...file });
    },
  );

  app.get('/trails/:org/:flow/:trail/audit_pdf', { schema: { params: trailParams } }, async (request, reply) => {
    const { flow, trail } = request.params;
    const file = await services.auditPackages.reportOf(orgOf(request), flow, trail);
    return sendDownload(reply, { type: 'application/pdf', ...file });
  });
  done();
};
