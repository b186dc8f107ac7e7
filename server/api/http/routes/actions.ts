// Actions (notifications; reference §2.12, spec endpoint 9): what to watch (environments or
// flows), on which triggers, and where to send (webhooks are sent; other targets are kept and shown).
import { orgOf, principalOf } from '../auth.ts';
import { bodySchema } from '../requestBodies.ts';
import type { RoutePlugin } from '../context.ts';
import { sendJsonString } from '../replies.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

const numberParams = {
  type: 'object',
  required: ['org', 'number'],
  properties: { org: { type: 'string' }, number: { type: 'integer', minimum: 1 } },
} as const;

export const actionRoutes: RoutePlugin = (app, { services }, done) => {
  const { actions } = services;

  const routes = [
    ['/actions/:org', 'action-create', undefined],
    ['/actions/:org/environments', 'environment-action-create', 'environment'],
    ['/actions/:org/flows', 'flow-action-create', 'flow'],
  ] as const;
  for (const [url, schema, kind] of routes) {
    app.put(url, { schema: { params: orgParams, body: bodySchema(schema) } }, async (request, reply) => {
      const { action, created } = await actions.save(orgOf(request), request.body, kind, principalOf(request));
      return reply.code(created ? 201 : 200).send(action);
    });
  }

  app.get(
    '/actions/:org',
    { schema: { params: orgParams } },
    async (request) => await actions.actionsOf(orgOf(request), principalOf(request).role),
  );

  app.get(
    '/actions/:org/:number',
    { schema: { params: numberParams } },
    async (request) => await actions.numbered(orgOf(request), request.params.number, principalOf(request).role),
  );

  app.delete('/actions/:org/:number', { schema: { params: numberParams } }, async (request, reply) => {
    await actions.remove(orgOf(request), request.params.number);
    return sendJsonString(reply, 200, 'OK');
  });
  done();
};
