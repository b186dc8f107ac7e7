// Trails (reference §2.2, spec endpoint 4): begin (201) or update (200), get, list per flow and
// per org with exact page arithmetic.
import type { FastifyReply } from 'fastify';
import { orgOf, principalOf } from '../auth.ts';
import { checkedBody } from '../requestBodies.ts';
import type { RoutePlugin } from '../context.ts';
import { pageOf, pageQuery } from '../../views/paging.ts';
import { jsonPart, multipartBody, partText, readMultipart } from '../multipart.ts';
import { sendJsonString } from '../replies.ts';
import { flowParams, trailParams } from './params.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

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

/** A JSON body assembled from already-encoded parts. */
function sendJson(reply: FastifyReply, json: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

export const trailRoutes: RoutePlugin = (app, { services }, done) => {
  // data_json and an optional template text: multipart only, as the reference (§2.2) declares it.
  app.put(
    '/trails/:org/:flow',
    { schema: { consumes: ['multipart/form-data', 'application/json'], params: flowParams, body: beginBody } },
    async (request, reply) => {
      const org = orgOf(request);
      const flow = await services.trails.flowToBegin(org, request.params.flow);
      const body = await readMultipart(request, 'data_json');
      const input = checkedBody('trail-create', jsonPart(body, 'data_json'), 'data_json');
      const created = await services.trails.begin(
        org,
        flow,
        input,
        partText(body, 'template_file'),
        principalOf(request).name,
      );
      return sendJsonString(
        reply,
        created ? 201 : 200,
        created ? `Trail '${input.name}' begun` : `Trail '${input.name}' updated`,
      );
    },
  );

  app.get('/trails/:org/:flow/:trail', { schema: { params: trailParams } }, async (request, reply) =>
    sendJson(reply, await services.trails.jsonOf(orgOf(request), request.params.flow, request.params.trail)),
  );

  app.get(
    '/trails/:org/:flow',
    { schema: { params: flowParams, querystring: flowListQuery } },
    async (request, reply) =>
      sendJson(reply, await services.trails.flowPageJson(orgOf(request), request.params.flow, pageOf(request.query))),
  );

  app.get('/trails/:org', { schema: { params: orgParams, querystring: orgListQuery } }, async (request, reply) =>
    sendJson(reply, await services.trails.orgPageJson(orgOf(request), request.query, pageOf(request.query))),
  );
  done();
};
