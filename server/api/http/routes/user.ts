// The caller's own settings (reference §2.18): the default org.
import type { FastifyPluginCallback } from 'fastify';
import { principalOf } from '../auth.ts';
import type { RouteOptions } from '../context.ts';
import { ApiError } from '../../errors.ts';
import { sendJsonString } from '../replies.ts';

export const userRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  app.get('/user/default-org', async (request) => {
    const caller = principalOf(request);
    const firstOrg = caller.orgs === 'all' ? (await store.orgs.all())[0]?.name : [...caller.orgs][0];
    return { default_org_name: (await store.userSettings.defaultOrg(caller.name)) ?? firstOrg ?? null };
  });

  // The path names the org as `name`, not `org`: the answer for an org the caller may not use is
  // this route's own 403, whether or not the org exists.
  app.put<{ Params: { name: string } }>('/user/:name', async (request, reply) => {
    const caller = principalOf(request);
    const { name } = request.params;
    const member = caller.orgs === 'all' ? (await store.orgs.byName(name)) !== undefined : caller.orgs.has(name);
    if (!member) throw new ApiError(403, `Access denied to /api/v2/user/${name}`);
    await store.transaction(async () => await store.userSettings.setDefaultOrg(caller.name, name));
    return sendJsonString(reply, 200, 'OK');
  });
  done();
};
