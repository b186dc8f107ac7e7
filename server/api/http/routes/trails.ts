// Trails (reference §2.2, spec endpoint 4): begin (201) or update (200), get, list per flow and
// per org with exact page arithmetic.
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { orgOf, principalOf } from '../auth.ts';
import { checkedBody } from '../requestBodies.ts';
import type { RouteOptions } from '../context.ts';
import { pageOf, pageQuery, paginationOf } from '../../views/paging.ts';
import { placeholderOf } from '../../views/placeholders.ts';
import { templateErrorText } from '../../rules/templateErrors.ts';
import { templateVerdictOf } from '../../services/documents.ts';
import { jsonArray, trailJsonCache, type ListedTrail } from '../../views/trailView.ts';
import { ApiError } from '../../errors.ts';
import { nowSeconds } from '../../clock.ts';
import { newId } from '../../ids.ts';
import { deliverSoon, trailStartedDeliveries } from '../../delivery/notifications.ts';
import { jsonPart, multipartBody, partText, readMultipart } from '../multipart.ts';
import { sendJsonString } from '../replies.ts';
import type { Flow, StoredTemplate } from '../../store/flows.ts';
import type { Trail } from '../../store/trails.ts';
import { flowOr404, trailOr404 } from '../../services/lookups.ts';
import { flowParams, trailParams } from './params.ts';

const flowListQuery = { type: 'object', properties: { ...pageQuery } } as const;

const orgListQuery = {
  type: 'object',
  properties: {
    ...pageQuery,
    flow: { type: 'string' },
    fingerprint: { type: 'string' },
    flow_tag: { type: 'string' },
  },
} as const;

const beginBody = multipartBody(
  '`data_json` (JSON `{name, description?, user_data?, git_commit_info?, repo_info?, external_urls?, origin_url?}`) and an optional `template_file`; a JSON body of the data_json object is accepted too.',
  { data_json: { type: 'string' }, template_file: { type: 'string', format: 'binary' } },
  ['data_json'],
);

/** Fields of data_json stored with the trail as they were sent. */
const BODY_FIELDS = ['user_data', 'git_commit_info', 'repo_info', 'external_urls', 'origin_url'] as const;

interface BeginInput {
  name: string;
  description?: string;
  body: Record<string, unknown>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function beginInputOf(data: unknown): BeginInput {
  const value = checkedBody('trail-create', data, 'data_json');
  const body: Record<string, unknown> = {};
  for (const key of BODY_FIELDS) if (value[key] !== undefined) body[key] = value[key];
  if (isObject(value.repo_info) && typeof value.repo_info.id === 'string') body.repo_ids = [value.repo_info.id];
  return { name: value.name, description: value.description ?? undefined, body };
}

/** data_json and an optional template text: multipart only, as the reference (§2.2) declares it. */
async function beginRequestOf(request: FastifyRequest): Promise<{ data: unknown; templateText?: string }> {
  const body = await readMultipart(request, 'data_json');
  return { data: jsonPart(body, 'data_json'), templateText: partText(body, 'template_file') };
}

/** A JSON body assembled from already-encoded parts. */
function sendJson(reply: FastifyReply, json: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** `{"data": [...], "pagination": {...}}` around an encoded array. */
function pageBody(data: Buffer, pagination: object): Buffer {
  return Buffer.concat([DATA_OPEN, data, Buffer.from(`,"pagination":${JSON.stringify(pagination)}}`)]);
}

const DATA_OPEN = Buffer.from('{"data":');

/** How many rendered pages of trails a server keeps. */
const CACHED_PAGES = 256;

export const trailRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;
  const renderedTrails = trailJsonCache(store, context.publicUrl);
  /** Trails of a list as JSON, each the spec's marked placeholder when it cannot be rendered. */
  const trailJsons = async (orgName: string, listed: readonly ListedTrail[]): Promise<Buffer[]> =>
    (await renderedTrails(orgName, listed)).map((item, index) =>
      item instanceof Error ? Buffer.from(JSON.stringify(placeholderOf(listed[index].trail.id, item.message))) : item,
    );
  /** A listed trail's flow, or why it cannot be read (its trails then show as placeholders). */
  const readableFlow = async (id: string): Promise<Flow | Error> => {
    try {
      return (await store.flows.byId(id))!;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
  // Pages of a flow's trails as sent, valid while the flow's version stays (migration 003).
  const pages = new Map<string, { version: number; body: Buffer }>();

  app.put<{ Params: { org: string; flow: string } }>(
    '/trails/:org/:flow',
    { schema: { consumes: ['multipart/form-data', 'application/json'], params: flowParams, body: beginBody } },
    async (request, reply) => {
      const org = orgOf(request);
      const flow = await flowOr404(store, org, request.params.flow);
      const { data, templateText } = await beginRequestOf(request);
      const input = beginInputOf(data);
      let ownTemplate: StoredTemplate | undefined;
      if (templateText !== undefined) {
        const verdict = await templateVerdictOf(context.evaluations, templateText);
        if (verdict.errors !== undefined) throw new ApiError(verdict.status, templateErrorText(verdict.errors));
        ownTemplate = verdict.template;
      }
      const createdBy = principalOf(request).name;
      const { created, deliveries } = await store.transaction(async () => {
        const now = nowSeconds();
        const existing = await store.trails.byName(flow.id, input.name);
        if (existing !== undefined) {
          await store.trails.update(
            existing.id,
            { description: input.description, body: { ...existing.body, ...input.body } },
            now,
          );
          await store.trails.appendEvent(existing.id, { type: 'trail_updated', timestamp: now });
          return { created: false, deliveries: [] };
        }
        const trail: Omit<Trail, 'version'> = {
          id: newId(),
          orgId: org.id,
          flowId: flow.id,
          name: input.name,
          description: input.description ?? '',
          template: ownTemplate ?? (await flowOr404(store, org, flow.name)).template,
          body: input.body,
          createdBy,
          createdAt: now,
          lastModifiedAt: now,
        };
        await store.trails.create(trail);
        await store.trails.appendEvent(trail.id, { type: 'trail_reported', timestamp: now });
        return { created: true, deliveries: await trailStartedDeliveries(context, org, flow.name, input.name) };
      });
      deliverSoon(context, deliveries);
      return sendJsonString(
        reply,
        created ? 201 : 200,
        created ? `Trail '${input.name}' begun` : `Trail '${input.name}' updated`,
      );
    },
  );

  app.get<{ Params: { org: string; flow: string; trail: string } }>(
    '/trails/:org/:flow/:trail',
    { schema: { params: trailParams } },
    async (request, reply) => {
      const org = orgOf(request);
      const flow = await flowOr404(store, org, request.params.flow);
      const [json] = await renderedTrails(org.name, [
        { flow, trail: await trailOr404(store, org, flow, request.params.trail) },
      ]);
      if (json instanceof Error) throw json;
      return sendJson(reply, json);
    },
  );

  app.get<{ Params: { org: string; flow: string }; Querystring: { page?: number; per_page?: number } }>(
    '/trails/:org/:flow',
    { schema: { params: flowParams, querystring: flowListQuery } },
    async (request, reply) => {
      const org = orgOf(request);
      const { page, perPage, offset, requested } = pageOf(request.query);
      const current = await store.flows.versionOf(org.id, request.params.flow);
      const key = requested ? `${current?.id}:${page}:${perPage}` : `${current?.id}:all`;
      const cached = pages.get(key);
      if (current !== undefined && cached !== undefined && cached.version === current.version)
        return sendJson(reply, cached.body);
      const flow = await flowOr404(store, org, request.params.flow);
      const { total, trails } = await store.trails.pageOfFlow(
        flow.id,
        requested ? perPage : -1,
        requested ? offset : 0,
      );
      const data = jsonArray(
        await trailJsons(
          org.name,
          trails.map((trail) => ({ flow, trail })),
        ),
      );
      const body = requested ? pageBody(data, paginationOf(total, page, perPage)) : data;
      if (current !== undefined) {
        pages.delete(key);
        pages.set(key, { version: current.version, body });
        if (pages.size > CACHED_PAGES) pages.delete(pages.keys().next().value!);
      }
      return sendJson(reply, body);
    },
  );

  app.get<{
    Params: { org: string };
    Querystring: { page?: number; per_page?: number; flow?: string; fingerprint?: string; flow_tag?: string };
  }>('/trails/:org', { schema: { querystring: orgListQuery } }, async (request, reply) => {
    const org = orgOf(request);
    const query = request.query;
    const flowId = query.flow === undefined ? undefined : (await flowOr404(store, org, query.flow)).id;
    const { page, perPage, offset, requested } = pageOf(query);
    const result = await store.trails.pageOfOrg(
      org.id,
      { flowId, flowTag: query.flow_tag, fingerprint: query.fingerprint },
      requested ? perPage : -1,
      requested ? offset : 0,
    );
    const flows = new Map<string, Flow | Error>();
    for (const trail of result.trails)
      if (!flows.has(trail.flowId)) flows.set(trail.flowId, await readableFlow(trail.flowId));
    const readable = result.trails.flatMap((trail) => {
      const flow = flows.get(trail.flowId)!;
      return flow instanceof Error ? [] : [{ flow, trail }];
    });
    const rendered = new Map(
      (await trailJsons(org.name, readable)).map((json, index) => [readable[index].trail.id, json]),
    );
    const data = jsonArray(
      result.trails.map((trail) => {
        const flow = flows.get(trail.flowId)!;
        return flow instanceof Error
          ? Buffer.from(JSON.stringify(placeholderOf(trail.id, flow.message)))
          : rendered.get(trail.id)!;
      }),
    );
    return sendJson(reply, requested ? pageBody(data, paginationOf(result.total, page, perPage)) : data);
  });
  done();
};
