// Custom attestation types (reference §2.15): versions by name, a JSON Schema for the data and jq
// rules for compliance.
import type { FastifyPluginCallback } from 'fastify';
import { orgOf, principalOf } from '../auth.ts';
import { checkedBody } from '../requestBodies.ts';
import type { RouteOptions } from '../context.ts';
import { ruleErrors, summaryErrors } from '../../rules/customTypes.ts';
import { schemaProblem } from '../../rules/customTypeSchemas.ts';
import { invalid, notFound, withInput } from '../../errors.ts';
import { nowSeconds } from '../../clock.ts';
import { jsonPart, multipartBody, partText, readMultipart } from '../multipart.ts';
import { sendJsonString } from '../replies.ts';
import type { CustomType } from '../../store/customTypes.ts';
import type { Org } from '../../store/orgs.ts';

const createBody = multipartBody(
  '`data_json` (the `custom-type-create` schema) and `type_schema`, the JSON Schema of the attestation data (file or text).',
  { data_json: { type: 'string' }, type_schema: { type: 'string', format: 'binary' } },
  ['data_json', 'type_schema'],
);

const nameParams = {
  type: 'object',
  required: ['org', 'name'],
  properties: { org: { type: 'string' }, name: { type: 'string' } },
} as const;
const versionQuery = { type: 'object', properties: { version: { type: 'integer', minimum: 1 } } } as const;

function typeNotFound(org: Org, name: string) {
  return notFound(`Custom attestation type '${name}' does not exist for org '${org.name}'`);
}

/** The type object; a version-specific read leaves out the creation fields and an absent description. */
function typeView(type: CustomType, versioned: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    name: type.name,
    version: type.version,
    schema: type.schema,
    evaluator: type.evaluator,
    summary: type.summary ?? [],
  };
  if (type.description !== null || !versioned) view.description = type.description;
  if (!versioned)
    Object.assign(view, { created_by: type.createdBy, created_at: type.createdAt, last_modified_at: type.createdAt });
  return view;
}

const SYSTEM_TYPES = [
  {
    name: 'decision',
    description:
      "A decision on a control: attest it with type_name 'decision' and the control's identifier in control.",
    attestation_type: 'system:decision',
  },
];

export const customTypeRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  app.post<{ Params: { org: string } }>(
    '/custom-attestation-types/:org',
    { schema: { consumes: ['multipart/form-data'], body: createBody } },
    async (request, reply) => {
      const org = orgOf(request);
      const body = await readMultipart(request, 'data_json');
      const input = checkedBody('custom-type-create', jsonPart(body, 'data_json'), 'data_json');
      const schemaText = partText(body, 'type_schema');
      if (schemaText === undefined) throw invalid({ type_schema: withInput('Field required', undefined) });
      let schema: unknown;
      try {
        schema = JSON.parse(schemaText);
      } catch (error) {
        throw invalid({
          type_schema: withInput(
            `Invalid JSON: ${error instanceof Error ? error.message : String(error)}`,
            schemaText.slice(0, 200),
          ),
        });
      }
      const problem = schemaProblem(schema, schemaText);
      if (problem !== undefined) throw invalid({ type_schema: withInput(problem, schemaText.slice(0, 200)) });
      const badRules = { ...ruleErrors(input.evaluator?.rules ?? []), ...summaryErrors(input.summary ?? []) };
      if (Object.keys(badRules).length > 0) throw invalid(badRules);
      const created = await store.transaction(
        async () =>
          await store.customTypes.createVersion({
            orgId: org.id,
            name: input.name,
            description: input.description ?? null,
            schema: schema as Record<string, unknown>,
            evaluator: input.evaluator ?? null,
            summary: input.summary ?? null,
            createdBy: principalOf(request).name,
            createdAt: nowSeconds(),
          }),
      );
      return reply.code(201).send(typeView(created, false));
    },
  );

  app.get<{ Params: { org: string } }>('/custom-attestation-types/:org', async (request) =>
    (await store.customTypes.list(orgOf(request).id)).map((type) => typeView(type, false)),
  );

  app.get<{ Params: { org: string; name: string }; Querystring: { version?: number } }>(
    '/custom-attestation-types/:org/:name',
    { schema: { params: nameParams, querystring: versionQuery } },
    async (request) => {
      const org = orgOf(request);
      const { name } = request.params;
      const latest = await store.customTypes.latest(org.id, name);
      if (latest === undefined) throw typeNotFound(org, name);
      if (request.query.version === undefined) return typeView(latest, false);
      const version = await store.customTypes.version(org.id, name, request.query.version);
      if (version === undefined)
        throw notFound(`version ${request.query.version} does not exist for custom attestation type '${name}'`);
      return typeView(version, true);
    },
  );

  // The built-in types an attestation of type `system` names in type_name (reference §2.18).
  app.get<{ Params: { org: string } }>('/system-attestation-types/:org', () => SYSTEM_TYPES);

  app.put<{ Params: { org: string; name: string } }>(
    '/custom-attestation-types/:org/:name/archive',
    { schema: { params: nameParams } },
    async (request, reply) => {
      const org = orgOf(request);
      await store.transaction(async () => {
        if ((await store.customTypes.latest(org.id, request.params.name)) === undefined)
          throw typeNotFound(org, request.params.name);
        await store.customTypes.archive(org.id, request.params.name, nowSeconds());
      });
      return sendJsonString(reply, 200, 'OK');
    },
  );
  done();
};
