// Service accounts and their API keys (reference §2.16). Keys are shown once, stored as sha256.
// Who may manage which account is the role table's (rules/roles.ts), applied by the service.
import type { FastifyRequest } from 'fastify';
import { orgOf, principalOf } from '../auth.ts';
import { bodySchema } from '../requestBodies.ts';
import { nowSeconds } from '../../clock.ts';
import type { RoutePlugin } from '../context.ts';
import { MEMBERSHIP_SOURCE, type AccountCaller } from '../../services/serviceAccounts.ts';
import { serviceAccountFields } from '../../../../shared/schemas/bodyParts.ts';
import { membershipEvent } from '../../../../shared/contract/accounts.ts';
import { pageOf, pageQuery } from '../../views/paging.ts';
import { apiKeyView, issuedApiKeyView, membershipEventView, serviceAccountView } from '../../views/serviceAccounts.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

const accountParams = {
  type: 'object',
  required: ['org', 'name'],
  properties: { org: { type: 'string' }, name: { type: 'string' } },
} as const;

const keyParams = {
  type: 'object',
  required: ['org', 'name', 'key_id'],
  properties: { org: { type: 'string' }, name: { type: 'string' }, key_id: { type: 'string' } },
} as const;

/** The membership log's query (reference §8.4). */
const membershipQuery = {
  type: 'object',
  properties: {
    ...pageQuery,
    search: { type: 'string', description: "A part of the account's name, the user's or the key's id, case aside." },
    event_type: { type: 'array', items: { type: 'string', enum: membershipEvent.properties.type.enum } },
    role: { type: 'string', enum: serviceAccountFields.privilege.enum },
    source: { type: 'string', description: 'Every event is made through the API: `api`.' },
    from_timestamp: { type: 'number' },
    to_timestamp: { type: 'number' },
    sort_by: { type: 'string', enum: ['timestamp', 'event_type', 'user', 'service_account'] },
    sort_dir: { type: 'string', enum: ['asc', 'desc'] },
  },
} as const;

/** Clients send the literal body `null` (or none) when a POST has no payload. */
function emptyBodyAsObject(request: { body: unknown }, _reply: unknown, next: () => void): void {
  if (request.body === null || request.body === undefined) request.body = {};
  next();
}

function callerOf(request: FastifyRequest): AccountCaller {
  const { name, role } = principalOf(request);
  return { name, role };
}

export const serviceAccountRoutes: RoutePlugin = (app, { services }, done) => {
  const accounts = services.serviceAccounts;

  app.post(
    '/service-accounts/:org',
    { schema: { params: orgParams, body: bodySchema('service-account-create') } },
    async (request, reply) => {
      const { body } = request;
      const account = await accounts.create(orgOf(request), callerOf(request), {
        name: body.name,
        description: body.description ?? '',
        privilege: body.privilege,
      });
      return reply.code(201).send(serviceAccountView(account));
    },
  );

  app.get(
    '/membership-audit-log/:org',
    { schema: { params: orgParams, querystring: membershipQuery } },
    async (request, reply) => {
      const { query } = request;
      const paged = query.page !== undefined || query.per_page !== undefined;
      const { page, perPage, offset } = pageOf(query);
      const { total, events } = await accounts.membershipLogOf(orgOf(request), {
        search: query.search,
        types: query.event_type,
        role: query.role,
        source: query.source,
        from: query.from_timestamp,
        to: query.to_timestamp,
        sortBy: query.sort_by ?? 'timestamp',
        descending: query.sort_dir === 'desc',
        limit: paged ? perPage : -1,
        offset: paged ? offset : 0,
      });
      // The log stays a plain list, as before its query; its page counts go in headers, as the events list's do.
      reply.header('x-total-count', String(total));
      if (paged) {
        reply.header('x-total-pages', String(Math.ceil(total / perPage)));
        reply.header('x-page', String(page));
        reply.header('x-per-page', String(perPage));
      }
      return events.map((event) => membershipEventView(event, MEMBERSHIP_SOURCE));
    },
  );

  app.get('/service-accounts/:org', { schema: { params: orgParams } }, async (request) =>
    (await accounts.accountsOf(orgOf(request))).map(serviceAccountView),
  );

  app.get('/service-accounts/:org/:name', { schema: { params: accountParams } }, async (request) =>
    serviceAccountView(await accounts.named(orgOf(request), request.params.name)),
  );

  app.patch(
    '/service-accounts/:org/:name',
    { schema: { params: accountParams, body: bodySchema('service-account-update') } },
    async (request) => {
      const { body } = request;
      return serviceAccountView(
        await accounts.update(orgOf(request), callerOf(request), request.params.name, {
          description: body.description ?? undefined,
          privilege: body.privilege,
        }),
      );
    },
  );

  app.delete('/service-accounts/:org/:name', { schema: { params: accountParams } }, async (request) => {
    await accounts.remove(orgOf(request), callerOf(request), request.params.name);
    return { message: 'OK' };
  });

  app.post(
    '/service-accounts/:org/:name/api-keys',
    { schema: { params: accountParams, body: bodySchema('api-key-create') } },
    async (request, reply) => {
      const { body } = request;
      const issued = await accounts.issueKey(orgOf(request), callerOf(request), request.params.name, {
        description: body.description,
        expiresAt: body.expires_at ?? null,
      });
      return reply.code(201).send(issuedApiKeyView(issued.record, issued.key, nowSeconds()));
    },
  );

  app.get('/service-accounts/:org/:name/api-keys', { schema: { params: accountParams } }, async (request) => {
    const keys = await accounts.keysOf(orgOf(request), callerOf(request), request.params.name);
    const now = nowSeconds();
    return keys.map((key) => apiKeyView(key, now));
  });

  app.get('/service-accounts/:org/:name/api-keys/:key_id', { schema: { params: keyParams } }, async (request) =>
    apiKeyView(
      await accounts.keyOf(orgOf(request), callerOf(request), request.params.name, request.params.key_id),
      nowSeconds(),
    ),
  );

  app.delete('/service-accounts/:org/:name/api-keys/:key_id', { schema: { params: keyParams } }, async (request) => {
    await accounts.revokeKey(orgOf(request), callerOf(request), request.params.name, request.params.key_id);
    return { message: 'OK' };
  });

  app.post(
    '/service-accounts/:org/:name/api-keys/:key_id/rotate',
    {
      schema: { params: keyParams, body: bodySchema('api-key-rotate') },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      const { body } = request;
      const rotated = await accounts.rotateKey(
        orgOf(request),
        callerOf(request),
        request.params.name,
        request.params.key_id,
        { graceHours: body.grace_period_hours ?? 0, expiresAt: body.expires_at },
      );
      return reply.code(201).send(issuedApiKeyView(rotated.record, rotated.key, nowSeconds()));
    },
  );
  done();
};
