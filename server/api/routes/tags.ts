// Tags on resources (reference §2.13): `PATCH /tags/{org}/{resource_type}/{id}` with set_tags and
// remove_tags. Each resource type registers how its tags are read and written.
import type { FastifyPluginAsync } from 'fastify';
import { orgOf } from '../auth.ts';
import { bodySchema } from '../bodies.ts';
import type { RouteOptions } from '../context.ts';
import { notFound } from '../errors.ts';
import { nowSeconds } from '../ids.ts';
import { sendJsonString } from '../replies.ts';
import type { Store } from '../store/index.ts';
import type { Org } from '../store/orgs.ts';
import { flowOr404 } from './lookups.ts';

export interface Tagged {
  tags: Record<string, string>;
  save(tags: Record<string, string>, now: number): void;
}

/** Finds the tagged resource (404 with the resource's own message) by the id in the path. */
export type TagTarget = (store: Store, org: Org, id: string) => Tagged;

const flowTarget: TagTarget = (store, org, name) => {
  const flow = flowOr404(store, org, name);
  return { tags: flow.tags, save: (tags, now) => store.flows.setTags(flow.id, tags, now) };
};

/** Resource types by every alias the path accepts. */
export const tagTargets: Record<string, TagTarget> = {
  flow: flowTarget,
  flows: flowTarget,
};

export const tagRoutes: FastifyPluginAsync<RouteOptions> = async (app, { context }) => {
  const { store } = context;
  app.patch<{ Params: { org: string; type: string; id: string }; Body: { set_tags?: Record<string, unknown>; remove_tags?: string[] } }>(
    '/tags/:org/:type/:id',
    { schema: { body: bodySchema('tags-update') } },
    async (request, reply) => {
      const org = orgOf(request);
      const target = Object.hasOwn(tagTargets, request.params.type) ? tagTargets[request.params.type] : undefined;
      if (target === undefined) throw notFound(`Tags are not supported on '${request.params.type}'`);
      store.transaction(() => {
        const tagged = target(store, org, request.params.id);
        const tags = { ...tagged.tags };
        for (const [key, value] of Object.entries(request.body.set_tags ?? {})) tags[key] = String(value);
        for (const key of request.body.remove_tags ?? []) delete tags[key];
        tagged.save(tags, nowSeconds());
      });
      return sendJsonString(reply, 200, 'OK');
    },
  );
};
