// Controls and their decisions (beta; reference §2.11, spec endpoints 7 and 8). Every route answers
// 403 when the org's `controls` feature is off. Decisions are `system:decision` attestations.
import type { FastifyPluginCallback } from 'fastify';
import { orgOf, principalOf } from '../auth.ts';
import { bodySchema } from '../requestBodies.ts';
import type { BodyOf } from '../../../../shared/schemas/index.ts';
import type { AppContext, RouteOptions } from '../context.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { nowSeconds } from '../../clock.ts';
import { pageLinks, pageOf, pageQueryOf, paginationOf } from '../../views/paging.ts';
import { renderEach } from '../../views/placeholders.ts';
import type { Control } from '../../store/controls.ts';
import type { Org } from '../../store/orgs.ts';

const CONTROL_OR_DECISION_NOT_FOUND = 'Control or decision not found';

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

async function controlView(context: AppContext, org: Org, control: Control) {
  return {
    identifier: control.identifier,
    name: control.name,
    description: control.description,
    version: control.version,
    archived: control.archived,
    created_by: control.createdBy,
    created_at: control.createdAt,
    last_modified_at: control.lastModifiedAt,
    tags: control.tags,
    links: control.links,
    policies_referencing: await context.store.policies.referencingControl(org.id, control.identifier),
  };
}

export const controlRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  // The beta gate: after authentication (which found the org), before validation and handlers.
  app.addHook('preValidation', (request, _reply, next) => {
    if (!orgOf(request).features.controls) throw forbidden();
    next();
  });

  const controlOr404 = async (
    org: Org,
    identifier: string,
    message = `Control '${identifier}' does not exist in organization '${org.name}'`,
  ): Promise<Control> => {
    const control = await store.controls.byIdentifier(org.id, identifier);
    if (control === undefined) throw notFound(message);
    return control;
  };

  app.post<{ Params: { org: string }; Body: BodyOf<'control-create'> }>(
    '/controls/:org',
    { schema: { body: bodySchema('control-create') } },
    async (request, reply) => {
      const org = orgOf(request);
      const body = request.body;
      const control = await store.transaction(async () => {
        if ((await store.controls.byIdentifier(org.id, body.identifier)) !== undefined) {
          throw conflict(`A control with identifier '${body.identifier}' already exists in organization '${org.name}'`);
        }
        await store.controls.create(
          org.id,
          {
            identifier: body.identifier,
            name: body.name,
            description: body.description ?? '',
            links: body.links ?? {},
            createdBy: principalOf(request).name,
          },
          nowSeconds(),
        );
        return (await store.controls.byIdentifier(org.id, body.identifier))!;
      });
      return reply.code(201).send(await controlView(context, org, control));
    },
  );

  app.get<{
    Params: { org: string };
    Querystring: {
      page?: number;
      per_page?: number;
      search?: string;
      tag?: string;
      archived?: boolean;
      sort_direction?: 'asc' | 'desc';
    };
  }>('/controls/:org', { schema: { querystring: listQuery } }, async (request) => {
    const org = orgOf(request);
    const query = request.query;
    const { page, perPage, offset } = pageOf(query);
    const selected = await store.controls.page(
      org.id,
      {
        archived: query.archived === true,
        search: query.search,
        tag: query.tag,
        descending: query.sort_direction === 'desc',
      },
      perPage,
      offset,
    );
    // A control that cannot be read or rendered stays in the list as a placeholder (the store
    // puts the unreadable rows last).
    return {
      controls: await renderEach(
        selected.controls,
        (control) => control.identifier,
        (control) => controlView(context, org, control),
      ),
      page,
      per_page: perPage,
      total_pages: Math.ceil(selected.total / perPage),
      total_count: selected.total,
      _links: pageLinks(context.publicUrl(), request.url, paginationOf(selected.total, page, perPage)),
    };
  });

  app.get<{ Params: { org: string; identifier: string } }>(
    '/controls/:org/:identifier',
    { schema: { params: controlParams } },
    async (request) => {
      const org = orgOf(request);
      return await controlView(context, org, await controlOr404(org, request.params.identifier));
    },
  );

  app.put<{ Params: { org: string; identifier: string }; Body: BodyOf<'control-update'> }>(
    '/controls/:org/:identifier',
    { schema: { params: controlParams, body: bodySchema('control-update') } },
    async (request) => {
      const org = orgOf(request);
      const body = request.body;
      const control = await store.transaction(async () => {
        const existing = await controlOr404(org, request.params.identifier);
        await store.controls.update(existing.id, body, nowSeconds());
        return (await store.controls.byIdentifier(org.id, existing.identifier))!;
      });
      return await controlView(context, org, control);
    },
  );

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    app.post<{ Params: { org: string; identifier: string } }>(
      `/controls/:org/:identifier/${action}`,
      { schema: { params: controlParams } },
      async (request) => {
        const org = orgOf(request);
        const control = await store.transaction(async () => {
          // Archiving an unknown control has the spec's short message (endpoint 8); unarchiving the long one.
          const existing = archived
            ? await controlOr404(org, request.params.identifier, 'Control not found')
            : await controlOr404(org, request.params.identifier);
          await store.controls.setArchived(existing.id, archived, nowSeconds());
          return (await store.controls.byIdentifier(org.id, existing.identifier))!;
        });
        return await controlView(context, org, control);
      },
    );
  }

  app.get<{ Params: { org: string; identifier: string; decision_id: string } }>(
    '/controls/:org/:identifier/decisions/:decision_id',
    {
      schema: {
        params: {
          ...controlParams,
          required: ['org', 'identifier', 'decision_id'],
          properties: { ...controlParams.properties, decision_id: { type: 'string' } },
        },
      },
    },
    async (request) => {
      const org = orgOf(request);
      const control = await store.controls.byIdentifier(org.id, request.params.identifier);
      const decision = await store.attestations.byId(org.id, request.params.decision_id);
      if (
        control === undefined ||
        decision === undefined ||
        decision.type !== 'system:decision' ||
        decision.body.control !== control.identifier
      ) {
        throw notFound(CONTROL_OR_DECISION_NOT_FOUND);
      }
      const body = decision.body;
      const fingerprint = decision.artifactFingerprint ?? '';
      const artifact =
        fingerprint === ''
          ? undefined
          : (await store.artifacts.inTrail(decision.trailId)).find(
              (candidate) => candidate.fingerprint === fingerprint,
            );
      const api = `${context.publicUrl()}/api/v2`;
      const evidenceUrl = `${api}/attestations/${encodeURIComponent(org.name)}/${encodeURIComponent(decision.flowName)}/trail/${encodeURIComponent(decision.trailName)}/attestation/${decision.id}/evidence`;
      return {
        control: control.identifier,
        is_compliant: decision.isCompliant,
        timestamp: decision.createdAt,
        attestation_name: decision.name,
        evidence_files:
          decision.evidence === null ? [] : [{ filename: decision.evidence.filename, download_url: evidenceUrl }],
        control_version: typeof body.control_version === 'number' ? body.control_version : control.version,
        flow_name: decision.flowName,
        trail_name: decision.trailName,
        artifact_fingerprint: fingerprint,
        artifact_name: artifact?.filename ?? '',
        description: typeof body.description === 'string' ? body.description : '',
        origin_url: typeof body.origin_url === 'string' ? body.origin_url : '',
        user_data: body.user_data !== null && typeof body.user_data === 'object' ? body.user_data : {},
      };
    },
  );
  done();
};
