// A trail's audit package (.tgz) and audit report (PDF), reference §2.2: each a download streamed
// as it is packed.
import { orgOf } from '../auth.ts';
import { sendDownload } from '../downloads.ts';
import type { RoutePlugin } from '../context.ts';
import { trailParams } from './params.ts';

export const auditPackageRoutes: RoutePlugin = (app, { services }, done) => {
  app.get('/trails/:org/:flow/:trail/audit_package', { schema: { params: trailParams } }, async (request, reply) => {
    const { flow, trail } = request.params;
    const file = await services.auditPackages.packageOf(orgOf(request), flow, trail);
    return sendDownload(reply, { type: 'application/gzip', ...file });
  });

  app.get('/trails/:org/:flow/:trail/audit_pdf', { schema: { params: trailParams } }, async (request, reply) => {
    const { flow, trail } = request.params;
    const file = await services.auditPackages.reportOf(orgOf(request), flow, trail);
    return sendDownload(reply, { type: 'application/pdf', ...file });
  });
  done();
};
