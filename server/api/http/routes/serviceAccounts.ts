// Service accounts and their API keys (reference §2.16). Keys are shown once, stored as sha256.
import type { FastifyPluginCallback } from 'fastify';
import { orgOf, principalOf } from '../auth.ts';
import { bodySchema } from '../requestBodies.ts';
import type { BodyOf } from '../../../../shared/schemas/index.ts';
import { ApiError, conflict, forbidden, notFound } from '../../errors.ts';
import { keyHash, newApiKey } from '../../apiKeys.ts';
import { nowSeconds } from '../../clock.ts';
import { newId } from '../../ids.ts';
import type { RouteOptions } from '../context.ts';
import type { MembershipEvent } from '../../store/membership.ts';
import type { Role, ServiceAccount, ServiceAccountKey } from '../../store/serviceAccounts.ts';

const rank: Record<Role, number> = { reader: 0, snapshotter: 1, member: 2, admin: 3 };

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

const access = { access: 'accounts' } as const;

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

export const serviceAccountRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  const accountOr404 = async (orgId: number, name: string): Promise<ServiceAccount> => {
    const account = await store.serviceAccounts.byName(orgId, name);
    if (account === undefined) throw notFound('Service account not found');
    return account;
  };

  const keyOr404 = async (account: ServiceAccount, keyId: string): Promise<ServiceAccountKey> => {
    const key = await store.serviceAccounts.keyById(account.id, keyId);
    if (key === undefined) throw notFound('API key not found');
    return key;
  };

  /** Writes a membership audit-log event (reference §2.18), inside the request's transaction. */
  const logMembership = async (
    account: ServiceAccount,
    type: MembershipEvent['type'],
    user: string,
    keyId: string | null = null,
    data: Record<string, unknown> = {},
  ) =>
    await store.membership.record(account.orgId, {
      type,
      account: account.name,
      keyId,
      user,
      data,
      timestamp: nowSeconds(),
    });

  const issueKey = async (account: ServiceAccount, description: string, expiresAt: number | null, user: string) => {
    const now = nowSeconds();
    const key = newApiKey();
    const record: ServiceAccountKey = {
      id: newId(),
      accountId: account.id,
      description,
      createdAt: now,
      expiresAt,
      revokedAt: null,
    };
    await store.serviceAccounts.createKey(record, keyHash(key));
    await logMembership(account, 'api_key_created', user, record.id, { expires_at: expiresAt });
    return { ...keyView(record, now), key };
  };

  app.post<{ Params: { org: string }; Body: BodyOf<'service-account-create'> }>(
    '/service-accounts/:org',
    { config: access, schema: { body: bodySchema('service-account-create') } },
    async (request, reply) => {
      const org = orgOf(request);
      const caller = principalOf(request);
      if (rank[request.body.privilege] > rank[caller.role]) throw forbidden();
      const now = nowSeconds();
      const account: ServiceAccount = {
        id: newId(),
        orgId: org.id,
        name: request.body.name,
        description: request.body.description ?? '',
        privilege: request.body.privilege,
        createdBy: caller.name,
        createdAt: now,
        lastModifiedAt: now,
      };
      await store.transaction(async () => {
        if ((await store.serviceAccounts.byName(org.id, account.name)) !== undefined) {
          throw conflict(`Service account '${account.name}' already exists in organization '${org.name}'`);
        }
        await store.serviceAccounts.create(account);
        await logMembership(account, 'service_account_created', caller.name, null, { privilege: account.privilege });
      });
      return reply.code(201).send(accountView(account));
    },
  );

  app.get<{ Params: { org: string } }>('/membership-audit-log/:org', { config: access }, async (request) =>
    (await store.membership.events(orgOf(request).id)).map((event) => ({
      type: event.type,
      timestamp: event.timestamp,
      user: event.user,
      service_account: event.account,
      api_key_id: event.keyId,
      data: event.data,
    })),
  );

  app.get<{ Params: { org: string } }>('/service-accounts/:org', { config: access }, async (request) =>
    (await store.serviceAccounts.list(orgOf(request).id)).map(accountView),
  );

  app.get<{ Params: { org: string; name: string } }>(
    '/service-accounts/:org/:name',
    { config: access, schema: { params: accountParams } },
    async (request) => accountView(await accountOr404(orgOf(request).id, request.params.name)),
  );

  app.patch<{ Params: { org: string; name: string }; Body: BodyOf<'service-account-update'> }>(
    '/service-accounts/:org/:name',
    { config: access, schema: { params: accountParams, body: bodySchema('service-account-update') } },
    async (request) => {
      const org = orgOf(request);
      const { body } = request;
      if (body.privilege !== undefined && rank[body.privilege] > rank[principalOf(request).role]) throw forbidden();
      return await store.transaction(async () => {
        const account = await accountOr404(org.id, request.params.name);
        await store.serviceAccounts.update(
          account.id,
          { description: body.description ?? undefined, privilege: body.privilege },
          nowSeconds(),
        );
        if (body.privilege !== undefined && body.privilege !== account.privilege) {
          await logMembership(account, 'service_account_updated', principalOf(request).name, null, {
            privilege: body.privilege,
            was: account.privilege,
          });
        }
        return accountView(await accountOr404(org.id, request.params.name));
      });
    },
  );

  app.delete<{ Params: { org: string; name: string } }>(
    '/service-accounts/:org/:name',
    { config: access, schema: { params: accountParams } },
    async (request) => {
      const org = orgOf(request);
      await store.transaction(async () => {
        const account = await accountOr404(org.id, request.params.name);
        await store.serviceAccounts.remove(account.id);
        await logMembership(account, 'service_account_deleted', principalOf(request).name);
      });
      return { message: 'OK' };
    },
  );

  app.post<{ Params: { org: string; name: string }; Body: BodyOf<'api-key-create'> }>(
    '/service-accounts/:org/:name/api-keys',
    { config: access, schema: { params: accountParams, body: bodySchema('api-key-create') } },
    async (request, reply) => {
      const org = orgOf(request);
      const { body } = request;
      if (body.expires_at != null && body.expires_at <= nowSeconds()) {
        throw new ApiError(400, 'Input payload validation failed', {
          expires_at: `Input should be in the future [input: ${body.expires_at}]`,
        });
      }
      const user = principalOf(request).name;
      const created = await store.transaction(
        async () =>
          await issueKey(
            await accountOr404(org.id, request.params.name),
            body.description,
            body.expires_at ?? null,
            user,
          ),
      );
      return reply.code(201).send(created);
    },
  );

  app.get<{ Params: { org: string; name: string } }>(
    '/service-accounts/:org/:name/api-keys',
    { config: access, schema: { params: accountParams } },
    async (request) => {
      const now = nowSeconds();
      return (await store.serviceAccounts.keys((await accountOr404(orgOf(request).id, request.params.name)).id)).map(
        (key) => keyView(key, now),
      );
    },
  );

  app.get<{ Params: { org: string; name: string; key_id: string } }>(
    '/service-accounts/:org/:name/api-keys/:key_id',
    { config: access, schema: { params: keyParams } },
    async (request) =>
      keyView(
        await keyOr404(await accountOr404(orgOf(request).id, request.params.name), request.params.key_id),
        nowSeconds(),
      ),
  );

  app.delete<{ Params: { org: string; name: string; key_id: string } }>(
    '/service-accounts/:org/:name/api-keys/:key_id',
    { config: access, schema: { params: keyParams } },
    async (request) => {
      const org = orgOf(request);
      await store.transaction(async () => {
        const account = await accountOr404(org.id, request.params.name);
        const key = await keyOr404(account, request.params.key_id);
        await store.serviceAccounts.revokeKey(key.id, nowSeconds());
        await logMembership(account, 'api_key_revoked', principalOf(request).name, key.id);
      });
      return { message: 'OK' };
    },
  );

  app.post<{ Params: { org: string; name: string; key_id: string }; Body: BodyOf<'api-key-rotate'> }>(
    '/service-accounts/:org/:name/api-keys/:key_id/rotate',
    {
      config: access,
      schema: { params: keyParams, body: bodySchema('api-key-rotate') },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      const org = orgOf(request);
      const { body } = request;
      const rotated = await store.transaction(async () => {
        const account = await accountOr404(org.id, request.params.name);
        const old = await keyOr404(account, request.params.key_id);
        const now = nowSeconds();
        const revokedAt = now + (body.grace_period_hours ?? 0) * 3600;
        await store.serviceAccounts.revokeKey(old.id, revokedAt);
        await logMembership(account, 'api_key_revoked', principalOf(request).name, old.id, {
          rotated: true,
          effective_at: revokedAt,
        });
        return await issueKey(account, old.description, body.expires_at ?? old.expiresAt, principalOf(request).name);
      });
      return reply.code(201).send(rotated);
    },
  );
  done();
};
