// Custom attestation types (reference §2.15): versions by name, a JSON Schema for the data and jq
// rules for compliance; and the system types (§2.18).
import { orgOf, principalOf } from '../auth.ts';
import { checkedBody } from '../requestBodies.ts';
import type { RoutePlugin } from '../context.ts';
import { jsonPart, multipartBody, partText, readMultipart } from '../multipart.ts';
import { sendJsonString } from '../replies.ts';

const createBody = multipartBody(
  '`data_json` (the `custom-type-create` schema) and an optional `type_schema`, the JSON Schema of the attestation data (file or text); without one, the data may be any JSON object.',
  { data_json: { type: 'string' }, type_schema: { type: 'string', format: 'binary' } },
  ['data_json'],
);

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;
const nameParams = {
  type: 'object',
  required: ['org', 'name'],
  properties: { org: { type: 'string' }, name: { type: 'string' } },
} as const;
/** Archived types are left out of the list unless asked for (reference §8.2 item 6), as controls are. */
const listQuery = { type: 'object', properties: { archived: { type: 'boolean' } } } as const;
const versionQuery = { type: 'object', properties: { version: { type: 'integer', minimum: 1 } } } as const;

export const customTypeRoutes: RoutePlugin = (app, { services }, done) => {
  app.post(
    '/custom-attestation-types/:org',
    { schema: { params: orgParams, consumes: ['multipart/form-data'], body: createBody } },
    async (request, reply) => {
      const org = orgOf(request);
      const body = await readMultipart(request, 'data_json');
      const input = checkedBody('custom-type-create', jsonPart(body, 'data_json'), 'data_json');
      const created = await services.customTypes.created(
        org,
        input,
        partText(body, 'type_schema'),
        principalOf(request).name,
      );
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/custom-attestation-types/:org',
    { schema: { params: orgParams, querystring: listQuery } },
    async (request) => services.customTypes.listOf(orgOf(request), request.query.archived === true),
  );

  app.get(
    '/custom-attestation-types/:org/:name',
    { schema: { params: nameParams, querystring: versionQuery } },
    async (request) => services.customTypes.named(orgOf(request), request.params.name, request.query.version),
  );

  app.get('/system-attestation-types/:org', { schema: { params: orgParams } }, () =>
    services.customTypes.systemTypes(),
  );
  // The hosted path names no org (reference §8.4); a literal segment, so it wins over /attestations/{org}.
  app.get('/attestations/system-attestation-types', () => services.customTypes.systemTypes());

  app.put(
    '/custom-attestation-types/:org/:name/archive',
    { schema: { params: nameParams } },
    async (request, reply) => {
      await services.customTypes.archive(orgOf(request), request.params.name);
      return sendJsonString(reply, 200, 'OK');
    },
  );
  done();
};
