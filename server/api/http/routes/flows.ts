// Flows (spec endpoint 3, reference §2.1): create or update with a template (multipart) or the
// legacy JSON list, list with paging/sort/filters, get, archive, rename.
import { bodySchemas } from '../../../../shared/schemas/index.ts';
import { orgOf, principalOf } from '../auth.ts';
import { checkedBody } from '../requestBodies.ts';
import type { RoutePlugin } from '../context.ts';
import { pageOf, pageQuery, paginationOf } from '../../views/paging.ts';
import { jsonPart, multipartBody, readMultipart, type MultipartBody } from '../multipart.ts';
import { sendJsonString } from '../replies.ts';
import { flowParams } from './params.ts';
import { EMPTY_KEPT } from '../emptyQueryValues.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

const listQuery = {
  type: 'object',
  properties: {
    ...pageQuery,
    // An empty search is answered 400 (reference §2.1), not ignored.
    search_by_name: { type: 'string', [EMPTY_KEPT]: true },
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

export const flowRoutes: RoutePlugin = (app, { services }, done) => {
  app.put(
    '/flows/:org/template_file',
    { schema: { params: orgParams, consumes: ['multipart/form-data'], body: templateFileBody } },
    async (request, reply) => {
      const body = await readMultipart(request, 'data_json');
      const input = checkedBody('flow-template-create', jsonPart(body, 'data_json'), 'data_json');
      const created = await services.flows.savedWithTemplate(
        orgOf(request),
        input,
        templateTextOf(body),
        principalOf(request).name,
      );
      return sendJsonString(
        reply,
        created ? 201 : 200,
        created ? `Flow '${input.name}' created` : `Flow '${input.name}' updated`,
      );
    },
  );

  app.put(
    '/flows/:org',
    { schema: { params: orgParams, body: bodySchemas['flow-create'] } },
    async (request, reply) => {
      const { name, description, visibility, template } = request.body;
      const created = await services.flows.savedWithNames(
        orgOf(request),
        { name, description, visibility },
        template,
        principalOf(request).name,
      );
      return sendJsonString(reply, created ? 201 : 200, 'OK');
    },
  );

  app.get('/flows/:org', { schema: { params: orgParams, querystring: listQuery } }, async (request) => {
    const { page, perPage, offset, requested } = pageOf(request.query);
    const { total, flows } = await services.flows.pageOf(
      orgOf(request),
      request.query,
      requested ? perPage : -1,
      requested ? offset : 0,
    );
    return requested ? { data: flows, pagination: paginationOf(total, page, perPage) } : flows;
  });

  app.get('/flows/:org/:flow', { schema: { params: flowParams } }, async (request) =>
    services.flows.named(orgOf(request), request.params.flow),
  );

  app.put('/flows/:org/:flow/archive', { schema: { params: flowParams } }, async (request, reply) => {
    await services.flows.archive(orgOf(request), request.params.flow);
    return sendJsonString(reply, 200, 'OK');
  });

  app.put(
    '/flows/:org/:flow/rename',
    { schema: { params: flowParams, body: bodySchemas['flow-rename'] } },
    async (request, reply) => {
      await services.flows.rename(orgOf(request), request.params.flow, request.body.new_name);
      return sendJsonString(reply, 200, 'OK');
    },
  );
  done();
};
