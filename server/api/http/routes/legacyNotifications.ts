// The legacy environment-notification routes that the service's infrastructure-as-code provider
// still calls (reference §2.12): `/organizations/{org}/environments_notifications[/{n}]`. They are
// answered by the current environment-action operations, run in-process with the caller's own
// credentials, so there is one implementation and one set of access rules. Replacing an action by
// its number (reference §8.4) has no current operation: it is the action service's own.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { orgOf, principalOf } from '../auth.ts';
import type { RoutePlugin } from '../context.ts';
import { bodySchema } from '../requestBodies.ts';
import { routeCheckedJsonBody } from '../multipart.ts';

/** Documented as the current operation's body; that operation checks it when the request is passed on. */
const actionBody = routeCheckedJsonBody(
  'An environment action (the `environment-action-create` schema), as PUT /actions/{org}/environments takes it.',
  {
    $ref: 'https://compliance-evidence.dev/schemas/environment-action-create/v1',
  },
);

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

/** The number as sent: the current operation answers one that is not a number. */
const numberParams = {
  type: 'object',
  required: ['org', 'number'],
  properties: { org: { type: 'string' }, number: { type: 'string' } },
} as const;

/** The number of the action to replace; one that is not a number is refused here. */
const replaceParams = {
  type: 'object',
  required: ['org', 'number'],
  properties: { org: { type: 'string' }, number: { type: 'integer', minimum: 1 } },
} as const;

type Method = 'GET' | 'PUT' | 'DELETE';

/** Answers the request with what the current operation at `url` answers. */
async function forwarded(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  method: Method,
  url: string,
): Promise<FastifyReply> {
  const headers: Record<string, string> = {};
  if (request.headers.authorization !== undefined) headers.authorization = request.headers.authorization;
  if (request.headers['content-type'] !== undefined) headers['content-type'] = request.headers['content-type'];
  const answer = await app.inject({
    method,
    url,
    headers,
    payload: method === 'PUT' ? JSON.stringify(request.body ?? null) : undefined,
  });
  const type = answer.headers['content-type'];
  if (typeof type === 'string') reply.type(type);
  return reply.code(answer.statusCode).send(answer.rawPayload);
}

const seg = encodeURIComponent;

export const legacyNotificationRoutes: RoutePlugin = (app, { services }, done) => {
  app.get(
    '/organizations/:org/environments_notifications',
    { schema: { params: orgParams } },
    async (request, reply) => {
      const answer = await app.inject({
        method: 'GET',
        url: `/api/v2/actions/${seg(request.params.org)}`,
        headers: { authorization: request.headers.authorization ?? '' },
      });
      if (answer.statusCode !== 200)
        return reply.code(answer.statusCode).type('application/json; charset=utf-8').send(answer.rawPayload);
      // Only environment actions are environment notifications.
      const actions = answer.json<Array<{ type?: unknown }>>();
      return actions.filter((action) => action.type !== 'flow');
    },
  );
  app.put(
    '/organizations/:org/environments_notifications',
    { schema: { params: orgParams, body: actionBody } },
    async (request, reply) =>
      forwarded(app, request, reply, 'PUT', `/api/v2/actions/${seg(request.params.org)}/environments`),
  );
  app.get(
    '/organizations/:org/environments_notifications/:number',
    { schema: { params: numberParams } },
    async (request, reply) =>
      forwarded(app, request, reply, 'GET', `/api/v2/actions/${seg(request.params.org)}/${seg(request.params.number)}`),
  );
  app.put(
    '/organizations/:org/environments_notifications/:number',
    { schema: { params: replaceParams, body: bodySchema('environment-action-create') } },
    async (request) =>
      services.actions.replace(orgOf(request), request.params.number, request.body, principalOf(request)),
  );
  app.delete(
    '/organizations/:org/environments_notifications/:number',
    { schema: { params: numberParams } },
    async (request, reply) =>
      forwarded(
        app,
        request,
        reply,
        'DELETE',
        `/api/v2/actions/${seg(request.params.org)}/${seg(request.params.number)}`,
      ),
  );
  done();
};
