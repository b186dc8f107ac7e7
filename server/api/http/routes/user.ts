// The caller's own settings (reference §2.18).
import type { RoutePlugin } from '../context.ts';
import { principalOf } from '../auth.ts';
import { sendJsonString } from '../replies.ts';

const orgNameParams = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } as const;

export const userRoutes: RoutePlugin = (app, { services }, done) => {
  app.get('/user/default-org', async (request) => ({
    default_org_name: await services.users.defaultOrgOf(principalOf(request)),
  }));

  // The path names the org as `name`, not `org`: the answer for an org the caller may not use is
  // the service's own 403, whether or not the org exists.
  app.put('/user/:name', { schema: { params: orgNameParams } }, async (request, reply) => {
    await services.users.chooseDefaultOrg(principalOf(request), request.params.name);
    return sendJsonString(reply, 200, 'OK');
  });
  done();
};
