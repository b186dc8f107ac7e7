// Flows (spec endpoint 3, reference §2.1): create or update with a template (multipart) or the
// legacy JSON list, list with paging/sort/filters, get, archive, rename.
import type { FastifyPluginCallback } from 'fastify';
import { orgOf, principalOf } from '../auth.ts';
import { bodySchema, checkedBody } from '../requestBodies.ts';
import type { BodyOf } from '../../../../shared/schemas/index.ts';
import type { RouteOptions } from '../context.ts';
import { flowView, flowViewsReader } from '../../views/flowView.ts';
import { renderEach } from '../../views/placeholders.ts';
import { pageOf, pageQuery, paginationOf } from '../../views/paging.ts';
import { EMPTY_TEMPLATE, templateOrInvalid } from '../../rules/templates.ts';
import { legacyTemplateOf, templateOrRefusal } from '../../services/documents.ts';
import { badRequest } from '../../errors.ts';
import { nowSeconds } from '../../clock.ts';
import { newId } from '../../ids.ts';
import { jsonPart, multipartBody, readMultipart, type MultipartBody } from '../multipart.ts';
import { sendJsonString } from '../replies.ts';
import type { Flow, StoredTemplate } from '../../store/flows.ts';
import { isUnreadable } from '../../store/db.ts';
import type { Store } from '../../store/index.ts';
import type { Org } from '../../store/orgs.ts';
import { flowOr404 } from '../../services/lookups.ts';
import { flowParams } from './params.ts';

const listQuery = {
  type: 'object',
  properties: {
    ...pageQuery,
    search_by_name: { type: 'string' },
    case_sensitive: { type: 'boolean' },
    tag: { type: 'array', items: { type: 'string' } },
    sort: { type: 'string', enum: ['name', 'latest_activity'] },
    sort_direction: { type: 'string', enum: ['asc', 'desc'] },
    space_id: { type: 'string' },
  },
} as const;

const templateFileBody = multipartBody(
  '`data_json` (JSON `{name, description, visibility?}`) and the template as `template_file` (text field or file) or `template_file.0` (file).',
  {
    data_json: { type: 'string' },
    template_file: { type: 'string', format: 'binary' },
    'template_file.0': { type: 'string', format: 'binary' },
  },
  ['data_json'],
);

/** A flow's fields, as the template form's `data_json` and the legacy JSON form both send them. */
type FlowInput = BodyOf<'flow-template-create'> | BodyOf<'flow-create'>;

/** The template text from `template_file` (field or file) or `template_file.0`. */
function templateTextOf(body: MultipartBody): string | undefined {
  for (const name of ['template_file', 'template_file.0']) {
    const field = body.fields.get(name);
    if (field !== undefined) return field;
    const file = body.files.get(name);
    if (file !== undefined) return file.bytes.toString('utf8');
  }
  return undefined;
}

/** Creates the flow or updates it; answers whether it was created. */
async function upsertFlow(
  store: Store,
  org: Org,
  input: FlowInput,
  template: StoredTemplate | undefined,
  createdBy: string,
): Promise<boolean> {
  return await store.transaction(async () => {
    const now = nowSeconds();
    const existing = await store.flows.byName(org.id, input.name);
    if (existing !== undefined) {
      await store.flows.update(
        existing.id,
        { description: input.description, visibility: input.visibility, template },
        now,
      );
      return false;
    }
    const flow: Flow = {
      id: newId(),
      orgId: org.id,
      name: input.name,
      description: input.description ?? '',
      visibility: input.visibility ?? 'private',
      template: template ?? templateOrInvalid(EMPTY_TEMPLATE),
      tags: {},
      repoUrl: null,
      createdBy,
      createdAt: now,
      lastModifiedAt: now,
      latestActivityAt: null,
      latestState: null,
    };
    await store.flows.create(flow);
    return true;
  });
}

export const flowRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  app.put<{ Params: { org: string } }>(
    '/flows/:org/template_file',
    { schema: { consumes: ['multipart/form-data'], body: templateFileBody } },
    async (request, reply) => {
      const org = orgOf(request);
      const body = await readMultipart(request, 'data_json');
      const input = checkedBody('flow-template-create', jsonPart(body, 'data_json'), 'data_json');
      const text = templateTextOf(body);
      const template = text === undefined ? undefined : await templateOrRefusal(context.evaluations, text);
      const created = await upsertFlow(store, org, input, template, principalOf(request).name);
      return sendJsonString(
        reply,
        created ? 201 : 200,
        created ? `Flow '${input.name}' created` : `Flow '${input.name}' updated`,
      );
    },
  );

  app.put<{ Params: { org: string }; Body: BodyOf<'flow-create'> }>(
    '/flows/:org',
    { schema: { body: bodySchema('flow-create') } },
    async (request, reply) => {
      const org = orgOf(request);
      const { name, description, visibility, template } = request.body;
      const stored = template === undefined ? undefined : await legacyTemplateOf(context.evaluations, template);
      const created = await upsertFlow(
        store,
        org,
        { name, description, visibility },
        stored,
        principalOf(request).name,
      );
      return sendJsonString(reply, created ? 201 : 200, 'OK');
    },
  );

  app.get<{
    Params: { org: string };
    Querystring: {
      page?: number;
      per_page?: number;
      search_by_name?: string;
      case_sensitive?: boolean;
      tag?: string[];
      sort?: 'name' | 'latest_activity';
      sort_direction?: 'asc' | 'desc';
    };
  }>('/flows/:org', { schema: { querystring: listQuery } }, async (request) => {
    const org = orgOf(request);
    const query = request.query;
    if (query.search_by_name === '') throw badRequest('Empty string is not allowed for flow names.');
    const host = context.publicUrl();
    const { page, perPage, offset, requested } = pageOf(query);
    const sort = query.sort ?? 'name';
    const selected = await store.flows.page(
      org.id,
      {
        nameContains: query.search_by_name,
        caseSensitive: query.case_sensitive === true,
        tags: query.tag,
        sort,
        descending:
          query.sort_direction === 'desc' || (sort === 'latest_activity' && query.sort_direction === undefined),
      },
      requested ? perPage : -1,
      requested ? offset : 0,
    );
    const view = await flowViewsReader(
      store,
      host,
      org.name,
      selected.flows.filter((flow): flow is Flow => !isUnreadable(flow)),
    );
    const data = await renderEach(selected.flows, (flow) => flow.id, view);
    return requested ? { data, pagination: paginationOf(selected.total, page, perPage) } : data;
  });

  app.get<{ Params: { org: string; flow: string } }>(
    '/flows/:org/:flow',
    { schema: { params: flowParams } },
    async (request) => {
      const org = orgOf(request);
      return await flowView(store, context.publicUrl(), org.name, await flowOr404(store, org, request.params.flow));
    },
  );

  app.put<{ Params: { org: string; flow: string } }>(
    '/flows/:org/:flow/archive',
    { schema: { params: flowParams } },
    async (request, reply) => {
      const org = orgOf(request);
      await store.transaction(
        async () => await store.flows.archive((await flowOr404(store, org, request.params.flow)).id, nowSeconds()),
      );
      return sendJsonString(reply, 200, 'OK');
    },
  );

  app.put<{ Params: { org: string; flow: string }; Body: BodyOf<'flow-rename'> }>(
    '/flows/:org/:flow/rename',
    { schema: { params: flowParams, body: bodySchema('flow-rename') } },
    async (request, reply) => {
      const org = orgOf(request);
      await store.transaction(async () => {
        const flow = await flowOr404(store, org, request.params.flow);
        if (flow.name === request.body.new_name) return;
        if ((await store.flows.byName(org.id, request.body.new_name)) !== undefined) {
          throw badRequest(`A flow named '${request.body.new_name}' already exists in organization '${org.name}'`);
        }
        await store.flows.rename(flow.id, request.body.new_name, nowSeconds());
        await store.actions.renameWatched(org.id, 'flow', flow.name, request.body.new_name, nowSeconds());
      });
      return sendJsonString(reply, 200, 'OK');
    },
  );
  done();
};
