// Service accounts and their API keys (reference §2.16), managed by a caller whose role reaches
// the account's privilege (rules/roles.ts): each operation reads the account and checks the role
// inside the transaction that changes it, so a concurrent change of privilege cannot slip between
// the check and the change. Every change is written to the membership audit log (§2.18).
import { keyHash, newApiKey } from '../apiKeys.ts';
import { nowSeconds } from '../clock.ts';
import { ApiError, conflict, forbidden } from '../errors.ts';
import { apiKeyNotFound, serviceAccountNotFound } from '../notFound.ts';
import { newId } from '../ids.ts';
import { reaches } from '../rules/roles.ts';
import type { Store } from '../store/index.ts';
import type { ServiceDeps } from './index.ts';
import type { MembershipEvent, MembershipQuery } from '../store/membership.ts';
import type { Org } from '../store/orgs.ts';
import type { Role } from '../principal.ts';
import type { ServiceAccount, ServiceAccountKey } from '../store/serviceAccounts.ts';

/** Who asks: the name the audit log shows, and the role that bounds what they may manage. */
export interface AccountCaller {
  name: string;
  role: Role;
}

/** A key as created: the secret itself, shown once. */
export interface IssuedKey {
  record: ServiceAccountKey;
  key: string;
}

function mustGrant(caller: AccountCaller, privilege: Role): void {
  if (!reaches(caller.role, privilege)) throw forbidden();
}

async function accountOr404(store: Store, org: Org, name: string): Promise<ServiceAccount> {
  const account = await store.serviceAccounts.byName(org.id, name);
  if (account === undefined) throw serviceAccountNotFound();
  return account;
}

/** The account named `name`, refused unless the caller's role reaches its privilege. */
async function managedAccount(store: Store, org: Org, name: string, caller: AccountCaller): Promise<ServiceAccount> {
  const account = await accountOr404(store, org, name);
  mustGrant(caller, account.privilege);
  return account;
}

async function keyOr404(store: Store, account: ServiceAccount, keyId: string): Promise<ServiceAccountKey> {
  const key = await store.serviceAccounts.keyById(account.id, keyId);
  if (key === undefined) throw apiKeyNotFound();
  return key;
}

/** Where every membership event comes from: this server has no other way to change members. */
export const MEMBERSHIP_SOURCE = 'api';

async function logMembership(
  store: Store,
  account: ServiceAccount,
  type: MembershipEvent['type'],
  user: string,
  keyId: string | null = null,
  data: Record<string, unknown> = {},
): Promise<void> {
  await store.membership.record(account.orgId, {
    type,
    account: account.name,
    keyId,
    user,
    // The privilege the account has once the event happened: a change names the new one.
    role: typeof data.privilege === 'string' ? data.privilege : account.privilege,
    data,
    timestamp: nowSeconds(),
  });
}

async function issueKey(
  store: Store,
  account: ServiceAccount,
  description: string,
  expiresAt: number | null,
  user: string,
): Promise<IssuedKey> {
  const key = newApiKey();
  const record: ServiceAccountKey = {
    id: newId(),
    accountId: account.id,
    description,
    createdAt: nowSeconds(),
    expiresAt,
    revokedAt: null,
  };
  await store.serviceAccounts.createKey(record, keyHash(key));
  await logMembership(store, account, 'api_key_created', user, record.id, { expires_at: expiresAt });
  return { record, key };
}

export function serviceAccountService({ store }: Pick<ServiceDeps, 'store'>) {
  return {
    /** The org's service accounts. */
    async accountsOf(org: Org): Promise<ServiceAccount[]> {
      return await store.serviceAccounts.list(org.id);
    },

    /** The account named `name`, or 404. */
    async named(org: Org, name: string): Promise<ServiceAccount> {
      return await accountOr404(store, org, name);
    },

    /**
     * The org's membership audit log (reference §2.18), filtered, sorted and paged as the hosted
     * log's query says (§8.4); every event is recorded through the API, so a `source` other than
     * `api` selects none.
     */
    async membershipLogOf(
      org: Org,
      query: MembershipQuery & { source?: string },
    ): Promise<{ total: number; events: MembershipEvent[] }> {
      if (query.source !== undefined && query.source !== MEMBERSHIP_SOURCE) return { total: 0, events: [] };
      return await store.membership.page(org.id, query);
    },

    async create(
      org: Org,
      caller: AccountCaller,
      fields: { name: string; description: string; privilege: Role },
    ): Promise<ServiceAccount> {
      mustGrant(caller, fields.privilege);
      const now = nowSeconds();
      const account: ServiceAccount = {
        id: newId(),
        orgId: org.id,
        ...fields,
        createdBy: caller.name,
        createdAt: now,
        lastModifiedAt: now,
      };
      return await store.transaction(async () => {
        if ((await store.serviceAccounts.byName(org.id, account.name)) !== undefined) {
          throw conflict(`Service account '${account.name}' already exists in organization '${org.name}'`);
        }
        await store.serviceAccounts.create(account);
        await logMembership(store, account, 'service_account_created', caller.name, null, {
          privilege: account.privilege,
        });
        return account;
      });
    },

    /** The account as changed. */
    async update(
      org: Org,
      caller: AccountCaller,
      name: string,
      changes: { description?: string; privilege?: Role },
    ): Promise<ServiceAccount> {
      if (changes.privilege !== undefined) mustGrant(caller, changes.privilege);
      return await store.transaction(async () => {
        const account = await managedAccount(store, org, name, caller);
        await store.serviceAccounts.update(account.id, changes, nowSeconds());
        if (changes.privilege !== undefined && changes.privilege !== account.privilege) {
          await logMembership(store, account, 'service_account_updated', caller.name, null, {
            privilege: changes.privilege,
            was: account.privilege,
          });
        }
        return await accountOr404(store, org, name);
      });
    },

    async remove(org: Org, caller: AccountCaller, name: string): Promise<void> {
      await store.transaction(async () => {
        const account = await managedAccount(store, org, name, caller);
        await store.serviceAccounts.remove(account.id);
        await logMembership(store, account, 'service_account_deleted', caller.name);
      });
    },

    /** A new key of the account; one that would expire already is refused. */
    async issueKey(
      org: Org,
      caller: AccountCaller,
      name: string,
      fields: { description: string; expiresAt: number | null },
    ): Promise<IssuedKey> {
      if (fields.expiresAt !== null && fields.expiresAt <= nowSeconds()) {
        throw new ApiError(400, 'Input payload validation failed', {
          expires_at: `Input should be in the future [input: ${fields.expiresAt}]`,
        });
      }
      return await store.transaction(
        async () =>
          await issueKey(
            store,
            await managedAccount(store, org, name, caller),
            fields.description,
            fields.expiresAt,
            caller.name,
          ),
      );
    },

    async keysOf(org: Org, caller: AccountCaller, name: string): Promise<ServiceAccountKey[]> {
      return await store.transaction(
        async () => await store.serviceAccounts.keys((await managedAccount(store, org, name, caller)).id),
      );
    },

    async keyOf(org: Org, caller: AccountCaller, name: string, keyId: string): Promise<ServiceAccountKey> {
      return await store.transaction(
        async () => await keyOr404(store, await managedAccount(store, org, name, caller), keyId),
      );
    },

    async revokeKey(org: Org, caller: AccountCaller, name: string, keyId: string): Promise<void> {
      await store.transaction(async () => {
        const account = await managedAccount(store, org, name, caller);
        const key = await keyOr404(store, account, keyId);
        await store.serviceAccounts.revokeKey(key.id, nowSeconds());
        await logMembership(store, account, 'api_key_revoked', caller.name, key.id);
      });
    },

    /** Revokes the key after `graceHours` and issues its successor, with the same description. */
    async rotateKey(
      org: Org,
      caller: AccountCaller,
      name: string,
      keyId: string,
      options: { graceHours: number; expiresAt: number | null | undefined },
    ): Promise<IssuedKey> {
      return await store.transaction(async () => {
        const account = await managedAccount(store, org, name, caller);
        const old = await keyOr404(store, account, keyId);
        const revokedAt = nowSeconds() + options.graceHours * 3600;
        await store.serviceAccounts.revokeKey(old.id, revokedAt);
        await logMembership(store, account, 'api_key_revoked', caller.name, old.id, {
          rotated: true,
          effective_at: revokedAt,
        });
        return await issueKey(store, account, old.description, options.expiresAt ?? old.expiresAt, caller.name);
      });
    },
  };
}
