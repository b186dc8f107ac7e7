// Controls and their decisions (beta; reference §2.11, spec endpoints 7 and 8). Every route answers
// 403 when the org's `controls` feature is off. Decisions are `system:decision` attestations.
import { orgOf, principalOf } from '../auth.ts';
import { bodySchema } from '../requestBodies.ts';
import type { RoutePlugin } from '../context.ts';
import { forbidden } from '../../errors.ts';
import { pageLinks, pageOf, pageQueryOf, paginationOf } from '../../views/paging.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

const listQuery = {
  type: 'object',
  properties: {
    ...pageQueryOf(100),
    search: { type: 'string' },
    tag: { type: 'string' },
    archived: { type: 'boolean' },
    sort_direction: { type: 'string', enum: ['asc', 'desc'] },
  },
} as const;

const controlParams = {
  type: 'object',
  required: ['org', 'identifier'],
  properties: { org: { type: 'string' }, identifier: { type: 'string' } },
} as const;

const versionParams = {
  ...controlParams,
  required: ['org', 'identifier', 'version_number'],
  properties: { ...controlParams.properties, version_number: { type: 'integer', minimum: 1 } },
} as const;

const decisionParams = {
  ...controlParams,
  required: ['org', 'identifier', 'decision_id'],
  properties: { ...controlParams.properties, decision_id: { type: 'string' } },
} as const;

export const controlRoutes: RoutePlugin = (app, { context, services }, done) => {
  const { controls } = services;

  // The beta gate: after authentication (which found the org), before validation and handlers.
  app.addHook('preValidation', (request, _reply, next) => {
    if (!orgOf(request).features.controls) throw forbidden();
    next();
  });

  app.post(
    '/controls/:org',
    { schema: { params: orgParams, body: bodySchema('control-create') } },
    async (request, reply) =>
      reply.code(201).send(await controls.create(orgOf(request), request.body, principalOf(request).name)),
  );

  app.get('/controls/:org', { schema: { params: orgParams, querystring: listQuery } }, async (request) => {
    const query = request.query;
    const { page, perPage, offset } = pageOf(query);
    const selected = await controls.pageOf(
      orgOf(request),
      {
        archived: query.archived === true,
        search: query.search,
        tag: query.tag,
        descending: query.sort_direction === 'desc',
      },
      perPage,
      offset,
    );
    return {
      controls: selected.controls,
      page,
      per_page: perPage,
      total_pages: Math.ceil(selected.total / perPage),
      total_count: selected.total,
      _links: pageLinks(context.publicUrl(), request.url, paginationOf(selected.total, page, perPage)),
    };
  });

  // A literal segment: wins over the control identified `{identifier}` (reference §8.4).
  app.get('/controls/:org/tags', { schema: { params: orgParams } }, async (request) =>
    controls.tagOptions(orgOf(request)),
  );

  app.get(
    '/controls/:org/:identifier',
    { schema: { params: controlParams } },
    async (request) => await controls.named(orgOf(request), request.params.identifier),
  );

  app.put(
    '/controls/:org/:identifier',
    { schema: { params: controlParams, body: bodySchema('control-update') } },
    async (request) =>
      await controls.update(orgOf(request), request.params.identifier, request.body, principalOf(request).name),
  );

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    app.post(
      `/controls/:org/:identifier/${action}`,
      { schema: { params: controlParams } },
      async (request) => await controls.setArchived(orgOf(request), request.params.identifier, archived),
    );
  }

  app.get('/controls/:org/:identifier/versions', { schema: { params: controlParams } }, async (request) =>
    controls.versionsOf(orgOf(request), request.params.identifier),
  );

  app.get(
    '/controls/:org/:identifier/versions/:version_number',
    { schema: { params: versionParams } },
    async (request) => controls.versionOf(orgOf(request), request.params.identifier, request.params.version_number),
  );

  app.get(
    '/controls/:org/:identifier/decisions',
    { schema: { params: controlParams, querystring: { type: 'object', properties: pageQueryOf(100) } } },
    async (request) =>
      controls.decisionsOf(orgOf(request), request.params.identifier, pageOf(request.query), request.url),
  );

  app.get('/controls/:org/:identifier/coverage', { schema: { params: controlParams } }, async (request) =>
    controls.coverageOf(orgOf(request), request.params.identifier),
  );

  app.get(
    '/controls/:org/:identifier/decisions/:decision_id',
    { schema: { params: decisionParams } },
    async (request) => await controls.decisionOf(orgOf(request), request.params.identifier, request.params.decision_id),
  );
  done();
};
