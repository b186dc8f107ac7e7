// Environments (reference §2.5), their allowlists (§2.17) and the tags route (§2.13).
import type { FastifyRequest } from 'fastify';
import type { BodyOf } from '../../../../shared/schemas/index.ts';
import { ENVIRONMENT_TYPES } from '../../../../shared/schemas/values.ts';
import { bodySchema } from '../requestBodies.ts';
import { orgOf, principalOf } from '../auth.ts';
import type { RoutePlugin } from '../context.ts';
import { invalid, withInput } from '../../errors.ts';
import type { TaggedKind } from '../../services/tags.ts';
import { allowlistEntryView, environmentView } from '../../views/environments.ts';
import { pageLinks, pageOf, pageQueryOf, paginationOf } from '../../views/paging.ts';
import { renderEach } from '../../views/placeholders.ts';
import { sendJsonString } from '../replies.ts';
import { envParams } from './params.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

const listQuery = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    type: { type: 'array', items: { type: 'string', enum: ENVIRONMENT_TYPES } },
    space_id: { type: 'string' },
    tag: { type: 'string' },
    sort: { type: 'string', enum: ['name', 'last_modified_at', 'last_changed_at'] },
    sort_direction: { type: 'string', enum: ['asc', 'desc'] },
    ...pageQueryOf(50),
  },
} as const;

const tagParams = {
  type: 'object',
  required: ['org', 'resource_type', 'id'],
  properties: { org: { type: 'string' }, resource_type: { type: 'string' }, id: { type: 'string' } },
} as const;

/** The tagged record with slashes raw in the path: a repo named `owner/name` (reference §8.1); undocumented, as `/repos/{org}/*` is. */
const tagPathParams = {
  type: 'object',
  required: ['org', 'resource_type', '*'],
  properties: { org: { type: 'string' }, resource_type: { type: 'string' }, '*': { type: 'string' } },
} as const;

const TAG_RESOURCES: Record<string, TaggedKind> = {
  flow: 'flow',
  flows: 'flow',
  env: 'environment',
  environment: 'environment',
  environments: 'environment',
  control: 'control',
  controls: 'control',
  repo: 'repo',
  repos: 'repo',
};

function taggedKindOf(resourceType: string): TaggedKind {
  const kind = TAG_RESOURCES[resourceType];
  if (kind !== undefined) return kind;
  throw invalid({
    resource_type: withInput(
      `Input should be ${Object.keys(TAG_RESOURCES)
        .map((k) => `'${k}'`)
        .join(', ')}`,
      resourceType,
    ),
  });
}

export const environmentRoutes: RoutePlugin = (app, { context, services }, done) => {
  const { environments } = services;

  /** Sets and removes the tags of the record `id` of `resourceType`; a null list or map changes nothing (reference §8.1). */
  const retag = async (
    request: FastifyRequest,
    resourceType: string,
    id: string,
    body: BodyOf<'tags-update'>,
  ): Promise<void> => {
    const kind = taggedKindOf(resourceType);
    await services.tags.retag(orgOf(request), kind, id, { set: body.set_tags ?? {}, remove: body.remove_tags ?? [] });
  };

  app.put(
    '/environments/:org',
    { schema: { params: orgParams, body: bodySchema('environment-create') } },
    async (request, reply) => {
      const created = await environments.createOrUpdate(orgOf(request), request.body, principalOf(request).name);
      return sendJsonString(reply, created ? 201 : 200, 'OK');
    },
  );

  app.get('/environments/:org', { schema: { params: orgParams, querystring: listQuery } }, async (request) => {
    const org = orgOf(request);
    const query = request.query;
    const paged = query.page !== undefined || query.per_page !== undefined;
    const { page, perPage, offset } = pageOf(query);
    const selected = await environments.pageOf(
      org,
      {
        nameContains: query.name,
        types: query.type,
        tag: query.tag,
        sort: query.sort,
        descending: query.sort_direction === 'desc',
      },
      paged ? perPage : -1,
      paged ? offset : 0,
    );
    // An environment that cannot be read or rendered stays in the list as a placeholder, after
    // the rendered ones (the store puts the unreadable rows last).
    const rendered = await renderEach(
      selected.environments,
      (environment) => String(environment.id),
      (environment) => environmentView(context.publicUrl(), org.name, environment),
    );
    const views = [
      ...rendered.filter((view) => !('placeholder' in view)),
      ...rendered.filter((view) => 'placeholder' in view),
    ];
    if (!paged) return views;
    return {
      _links: pageLinks(context.publicUrl(), request.url, paginationOf(selected.total, page, perPage)),
      page,
      per_page: perPage,
      total_pages: Math.ceil(selected.total / perPage),
      total_count: selected.total,
      environments: views,
    };
  });

  app.get('/environments/:org/:env', { schema: { params: envParams } }, async (request) => {
    const org = orgOf(request);
    return environmentView(context.publicUrl(), org.name, await environments.named(org, request.params.env));
  });

  app.patch(
    '/environments/:org/:env',
    { schema: { params: envParams, body: bodySchema('environment-update') } },
    async (request, reply) => {
      await environments.update(orgOf(request), request.params.env, request.body, principalOf(request).name);
      return sendJsonString(reply, 200, 'OK');
    },
  );

  app.put('/environments/:org/:env/archive', { schema: { params: envParams } }, async (request, reply) => {
    await environments.archive(orgOf(request), request.params.env);
    return sendJsonString(reply, 200, 'OK');
  });

  app.put(
    '/environments/:org/:env/rename',
    { schema: { params: envParams, body: bodySchema('environment-rename') } },
    async (request, reply) => {
      await environments.rename(orgOf(request), request.params.env, request.body.new_name);
      return sendJsonString(reply, 200, 'OK');
    },
  );

  app.put(
    '/environments/:org/:env/join',
    { schema: { params: envParams, body: bodySchema('environment-join') } },
    async (request, reply) => {
      await environments.join(orgOf(request), request.params.env, request.body.physical_env_name);
      return sendJsonString(reply, 200, 'OK');
    },
  );

  for (const [method, mode] of [
    ['POST', 'attach'],
    ['DELETE', 'detach'],
  ] as const) {
    app.route({
      method,
      url: '/environments/:org/:env/policies',
      schema: { params: envParams, body: bodySchema('environment-policies') },
      handler: async (request, reply) => {
        const { policy_names: names } = request.body;
        await environments.changePolicies(orgOf(request), request.params.env, names, mode, principalOf(request).name);
        return sendJsonString(reply, 200, 'OK');
      },
    });
  }

  app.put(
    '/allowlists/:org/:env',
    { schema: { params: envParams, body: bodySchema('allowlist-create') } },
    async (request, reply) => {
      const body = request.body;
      await environments.allow(orgOf(request), request.params.env, {
        artifactFingerprint: body.artifact_fingerprint,
        artifactName: body.artifact_name ?? '',
        description: body.description,
        createdBy: principalOf(request).name,
      });
      return sendJsonString(reply, 200, 'OK');
    },
  );

  app.get('/allowlists/:org', { schema: { params: orgParams } }, async (request) =>
    (await environments.allowlistOf(orgOf(request))).map(allowlistEntryView),
  );

  app.patch(
    '/tags/:org/:resource_type/:id',
    { schema: { params: tagParams, body: bodySchema('tags-update') } },
    async (request, reply) => {
      await retag(request, request.params.resource_type, request.params.id, request.body);
      return sendJsonString(reply, 200, 'OK');
    },
  );

  app.patch(
    '/tags/:org/:resource_type/*',
    { schema: { hide: true, params: tagPathParams, body: bodySchema('tags-update') } },
    async (request, reply) => {
      await retag(request, request.params.resource_type, request.params['*'], request.body);
      return sendJsonString(reply, 200, 'OK');
    },
  );
  done();
};
