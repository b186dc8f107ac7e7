// Service accounts and their API keys (reference §2.16). Keys are shown once, stored as sha256.
// Who may manage which account is the role table's (rules/roles.ts), applied by the service.
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { orgOf, principalOf } from '../auth.ts';
import { bodySchema } from '../requestBodies.ts';
import type { BodyOf } from '../../../../shared/schemas/index.ts';
import { ApiError } from '../../errors.ts';
import { nowSeconds } from '../../clock.ts';
import type { RouteOptions } from '../context.ts';
import {
  accountOr404,
  createAccount,
  createKey,
  deleteAccount,
  keyOf,
  keysOf,
  revokeKey,
  rotateKey,
  updateAccount,
  type AccountCaller,
  type IssuedKey,
} from '../../services/serviceAccounts.ts';
import type { ServiceAccount, ServiceAccountKey } from '../../store/serviceAccounts.ts';

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

/** Clients send the literal body `null` (or none) when a POST has no payload. */
function emptyBodyAsObject(request: { body: unknown }, _reply: unknown, next: () => void): void {
  if (request.body === null || request.body === undefined) request.body = {};
  next();
}

function accountView(account: ServiceAccount) {
  return {
    name: account.name,
    display_name: account.name,
    privilege: account.privilege,
    creating_user_id: account.createdBy,
    description: account.description,
    created_at: account.createdAt,
    last_modified_at: account.lastModifiedAt,
  };
}

function keyView(key: ServiceAccountKey, now: number) {
  return {
    id: key.id,
    description: key.description,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    revoked: key.revokedAt !== null && key.revokedAt <= now,
    revoked_at: key.revokedAt,
  };
}

function issuedView(issued: IssuedKey) {
  return { ...keyView(issued.record, nowSeconds()), key: issued.key };
}

function callerOf(request: FastifyRequest): AccountCaller {
  const { name, role } = principalOf(request);
  return { name, role };
}

export const serviceAccountRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  app.post<{ Params: { org: string }; Body: BodyOf<'service-account-create'> }>(
    '/service-accounts/:org',
    { schema: { body: bodySchema('service-account-create') } },
    async (request, reply) => {
      const { body } = request;
      const account = await createAccount(store, orgOf(request), callerOf(request), {
        name: body.name,
        description: body.description ?? '',
        privilege: body.privilege,
      });
      return reply.code(201).send(accountView(account));
    },
  );

  app.get<{ Params: { org: string } }>('/membership-audit-log/:org', async (request) =>
    (await store.membership.events(orgOf(request).id)).map((event) => ({
      type: event.type,
      timestamp: event.timestamp,
      user: event.user,
      service_account: event.account,
      api_key_id: event.keyId,
      data: event.data,
    })),
  );

  app.get<{ Params: { org: string } }>('/service-accounts/:org', async (request) =>
    (await store.serviceAccounts.list(orgOf(request).id)).map(accountView),
  );

  app.get<{ Params: { org: string; name: string } }>(
    '/service-accounts/:org/:name',
    { schema: { params: accountParams } },
    async (request) => accountView(await accountOr404(store, orgOf(request), request.params.name)),
  );

  app.patch<{ Params: { org: string; name: string }; Body: BodyOf<'service-account-update'> }>(
    '/service-accounts/:org/:name',
    { schema: { params: accountParams, body: bodySchema('service-account-update') } },
    async (request) => {
      const { body } = request;
      return accountView(
        await updateAccount(store, orgOf(request), callerOf(request), request.params.name, {
          description: body.description ?? undefined,
          privilege: body.privilege,
        }),
      );
    },
  );

  app.delete<{ Params: { org: string; name: string } }>(
    '/service-accounts/:org/:name',
    { schema: { params: accountParams } },
    async (request) => {
      await deleteAccount(store, orgOf(request), callerOf(request), request.params.name);
      return { message: 'OK' };
    },
  );

  app.post<{ Params: { org: string; name: string }; Body: BodyOf<'api-key-create'> }>(
    '/service-accounts/:org/:name/api-keys',
    { schema: { params: accountParams, body: bodySchema('api-key-create') } },
    async (request, reply) => {
      const { body } = request;
      if (body.expires_at != null && body.expires_at <= nowSeconds()) {
        throw new ApiError(400, 'Input payload validation failed', {
          expires_at: `Input should be in the future [input: ${body.expires_at}]`,
        });
      }
      const issued = await createKey(store, orgOf(request), callerOf(request), request.params.name, {
        description: body.description,
        expiresAt: body.expires_at ?? null,
      });
      return reply.code(201).send(issuedView(issued));
    },
  );

  app.get<{ Params: { org: string; name: string } }>(
    '/service-accounts/:org/:name/api-keys',
    { schema: { params: accountParams } },
    async (request) => {
      const keys = await keysOf(store, orgOf(request), callerOf(request), request.params.name);
      const now = nowSeconds();
      return keys.map((key) => keyView(key, now));
    },
  );

  app.get<{ Params: { org: string; name: string; key_id: string } }>(
    '/service-accounts/:org/:name/api-keys/:key_id',
    { schema: { params: keyParams } },
    async (request) =>
      keyView(
        await keyOf(store, orgOf(request), callerOf(request), request.params.name, request.params.key_id),
        nowSeconds(),
      ),
  );

  app.delete<{ Params: { org: string; name: string; key_id: string } }>(
    '/service-accounts/:org/:name/api-keys/:key_id',
    { schema: { params: keyParams } },
    async (request) => {
      await revokeKey(store, orgOf(request), callerOf(request), request.params.name, request.params.key_id);
      return { message: 'OK' };
    },
  );

  app.post<{ Params: { org: string; name: string; key_id: string }; Body: BodyOf<'api-key-rotate'> }>(
    '/service-accounts/:org/:name/api-keys/:key_id/rotate',
    {
      schema: { params: keyParams, body: bodySchema('api-key-rotate') },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      const { body } = request;
      const rotated = await rotateKey(
        store,
        orgOf(request),
        callerOf(request),
        request.params.name,
        request.params.key_id,
        {
          graceHours: body.grace_period_hours ?? 0,
          expiresAt: body.expires_at,
        },
      );
      return reply.code(201).send(issuedView(rotated));
    },
  );
  done();
};
