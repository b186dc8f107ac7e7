// Who is asking and what they may reach (spec §Authentication, reference §1.10): the keyring of the
// keys the server was started with and the service accounts' keys, the org a request names, and
// the role table's verdict on the operation. The auth hook (http/auth.ts) asks this service before
// a request's body is read; the pages ask it who a session's key stands for.
import { accountPrincipalId, configuredKeyId, keyHash, SERVER_ADMIN_ID } from '../apiKeys.ts';
import { ApiError, forbidden } from '../errors.ts';
import { orgNotFound } from '../notFound.ts';
import type { Principal } from '../principal.ts';
import { mayUse, operationRuleOf } from '../rules/roles.ts';
import type { Org } from '../store/orgs.ts';
import type { ServiceDeps } from './index.ts';

const UNAUTHENTICATED = 'Authentication required: send your API key as "Authorization: Bearer <key>"';
const INVALID_KEY = 'Invalid API key';

/** What a request presents: its operation (fastify's method and route URL), key and `{org}`. */
export interface AccessRequest {
  method: string;
  url: string;
  key: string | undefined;
  orgName: string | undefined;
}

export function accessService({ store, configuredKeys }: Pick<ServiceDeps, 'store' | 'configuredKeys'>) {
  const byHash = new Map<string, Principal>();
  let numbered = 0;
  configuredKeys.forEach((entry) => {
    const hash = keyHash(entry.key);
    byHash.set(hash, {
      id: entry.orgs === 'all' ? SERVER_ADMIN_ID : configuredKeyId(hash),
      name: entry.orgs === 'all' ? 'admin' : `api-key-${++numbered}`,
      role: entry.role,
      orgs: entry.orgs === 'all' ? 'all' : new Set(entry.orgs),
    });
  });

  /** The principal a presented key stands for: configured keys first, then service accounts. */
  const principalOf = async (key: string): Promise<Principal | undefined> => {
    const hash = keyHash(key);
    const known = byHash.get(hash);
    if (known !== undefined) return known;
    const account = await store.serviceAccounts.principalForKeyHash(hash, Date.now() / 1000);
    return account === undefined
      ? undefined
      : {
          id: accountPrincipalId(account.accountId),
          name: account.accountName,
          role: account.privilege,
          orgs: new Set([account.orgName]),
        };
  };

  return {
    principalOf,

    /** Whether the role table has an entry for the operation of a route (a route without one keeps the server from starting). */
    isRuled: (method: string, url: string): boolean => operationRuleOf(method, url) !== undefined,

    /**
     * The caller and the org of a request, or the refusal: 401 without a usable key or with an
     * unknown one; 404 for an org that does not exist, whoever asks; 403 for an org that is not the
     * key's (without saying more), or an operation the key's role may not use.
     */
    async granted({ method, url, key, orgName }: AccessRequest): Promise<{ principal: Principal; org: Org | null }> {
      const rule = operationRuleOf(method, url);
      if (key === undefined) throw new ApiError(401, UNAUTHENTICATED);
      const principal = await principalOf(key);
      if (principal === undefined) throw new ApiError(401, INVALID_KEY);
      let org: Org | null = null;
      if (orgName !== undefined) {
        const found = await store.orgs.byName(orgName);
        if (found === undefined) throw orgNotFound();
        if (principal.orgs !== 'all' && !principal.orgs.has(orgName)) throw forbidden();
        org = found;
      }
      if (rule === undefined || !mayUse(principal.role, rule.needs)) throw forbidden();
      return { principal, org };
    },

    /**
     * The org named `orgName` when the key may read it, for a page that reads through a service
     * (the API's access rule: an org of the key's, any org for a key of all; every role reads);
     * undefined otherwise, which a page shows as not found, whether the org exists or not.
     */
    async readableOrg(key: string, orgName: string): Promise<Org | undefined> {
      const principal = await principalOf(key);
      if (principal === undefined || !mayUse(principal.role, 'read')) return undefined;
      if (principal.orgs !== 'all' && !principal.orgs.has(orgName)) return undefined;
      return await store.orgs.byName(orgName);
    },

    /** The names of the orgs a principal may use, sorted (the landing page lists them). */
    async orgNamesOf(principal: Principal): Promise<string[]> {
      return principal.orgs === 'all' ? (await store.orgs.all()).map((org) => org.name) : [...principal.orgs].sort();
    },
  };
}
