// The caller's own settings (reference §2.18): the default org, kept under the caller's principal
// id, so no other key, whatever it is named, reads or changes it.
import type { FastifyPluginCallback } from 'fastify';
import { principalOf } from '../auth.ts';
import type { Principal } from '../../principal.ts';
import type { RouteOptions } from '../context.ts';
import { ApiError } from '../../errors.ts';
import type { Store } from '../../store/index.ts';
import { sendJsonString } from '../replies.ts';

async function mayUseOrg(store: Store, caller: Principal, name: string): Promise<boolean> {
  return caller.orgs === 'all' ? (await store.orgs.byName(name)) !== undefined : caller.orgs.has(name);
}

export const userRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  // A default chosen earlier counts while the key may still use that org (a --config edit may take it away).
  app.get('/user/default-org', async (request) => {
    const caller = principalOf(request);
    const chosen = await store.userSettings.defaultOrg(caller.id);
    if (chosen !== undefined && (await mayUseOrg(store, caller, chosen))) return { default_org_name: chosen };
    const firstOrg = caller.orgs === 'all' ? (await store.orgs.all())[0]?.name : [...caller.orgs][0];
    return { default_org_name: firstOrg ?? null };
  });

  // The path names the org as `name`, not `org`: the answer for an org the caller may not use is
  // this route's own 403, whether or not the org exists.
  app.put<{ Params: { name: string } }>('/user/:name', async (request, reply) => {
    const caller = principalOf(request);
    const { name } = request.params;
    if (!(await mayUseOrg(store, caller, name))) throw new ApiError(403, `Access denied to /api/v2/user/${name}`);
    await store.transaction(async () => await store.userSettings.setDefaultOrg(caller.id, name));
    return sendJsonString(reply, 200, 'OK');
  });
  done();
};
