// Authentication and authorisation for everything under /api/v2 (spec §Authentication,
// reference §1.10): Bearer or Basic (the key as username), then org access, then what the route's
// operation needs by the role table (rules/roles.ts), all before the body is read.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { accountPrincipalId, configuredKeyId, keyHash, SERVER_ADMIN_ID } from '../apiKeys.ts';
import { ApiError, forbidden, notFound } from '../errors.ts';
import type { ConfiguredKey } from '../options.ts';
import { mayUse, operationRuleOf } from '../rules/roles.ts';
import type { Store } from '../store/index.ts';
import type { Org } from '../store/orgs.ts';
import type { Principal } from '../principal.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served without credentials (readiness, OpenAPI, schemas, pages). */
    public?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    org: Org | null;
  }
}

const UNAUTHENTICATED = 'Authentication required: send your API key as "Authorization: Bearer <key>"';
const INVALID_KEY = 'Invalid API key';

/** Answers the principal a presented key stands for: configured keys first, then service accounts. */
export function keyringOf(
  configured: readonly ConfiguredKey[],
  store: Store,
): (key: string) => Promise<Principal | undefined> {
  const byHash = new Map<string, Principal>();
  let numbered = 0;
  configured.forEach((entry) => {
    const hash = keyHash(entry.key);
    byHash.set(hash, {
      id: entry.orgs === 'all' ? SERVER_ADMIN_ID : configuredKeyId(hash),
      name: entry.orgs === 'all' ? 'admin' : `api-key-${++numbered}`,
      role: entry.role,
      orgs: entry.orgs === 'all' ? 'all' : new Set(entry.orgs),
    });
  });
  return async (key) => {
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
}

/** The key in an Authorization header, or undefined when there is none usable. */
function presentedKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(\S+)\s+(.*?)\s*$/.exec(header);
  if (match === null) return undefined;
  const scheme = match[1].toLowerCase();
  const value = match[2];
  if (scheme === 'bearer') return value === '' ? undefined : value;
  if (scheme !== 'basic') return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = colon === -1 ? decoded : decoded.slice(0, colon);
  return username === '' ? undefined : username;
}

/** Stops the server at start when a route that takes a key has no entry in the role table. */
function refuseRoutesWithoutRule(app: FastifyInstance): void {
  const routes: RouteOptions[] = [];
  // Collected, then checked once every plugin's onRoute hook has run (the API reference's marks its routes public).
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.addHook('onReady', (done) => {
    const unruled = routes.filter(
      (route) =>
        route.config?.public !== true &&
        [route.method].flat().some((method) => operationRuleOf(method, route.url) === undefined),
    );
    routes.length = 0;
    done(
      unruled.length === 0
        ? undefined
        : new Error(
            `routes without an entry in the role table (server/api/rules/roles.ts): ${unruled.map((route) => `${String(route.method)} ${route.url}`).join(', ')}`,
          ),
    );
  });
}

export function registerAuth(
  app: FastifyInstance,
  resolveKey: (key: string) => Promise<Principal | undefined>,
  store: Store,
): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('org', null);
  refuseRoutesWithoutRule(app);
  app.addHook('onRequest', async (request) => {
    if (request.is404 || request.routeOptions.config.public === true) return;
    const rule = operationRuleOf(request.method, request.routeOptions.url ?? '');
    const key = presentedKey(request.headers.authorization);
    if (key === undefined) throw new ApiError(401, UNAUTHENTICATED);
    const principal = await resolveKey(key);
    if (principal === undefined) throw new ApiError(401, INVALID_KEY);
    request.principal = principal;
    const orgName = (request.params as Record<string, string | undefined>).org;
    if (orgName !== undefined) {
      // An org that does not exist is named as such (spec §Errors), whoever asks; one that exists
      // but is not the key's is refused without saying more.
      const org = await store.orgs.byName(orgName);
      if (org === undefined) throw notFound('Organization not found');
      if (principal.orgs !== 'all' && !principal.orgs.has(orgName)) throw forbidden();
      request.org = org;
    }
    if (rule === undefined || !mayUse(principal.role, rule.needs)) throw forbidden();
  });
}

/** The org of a route with an `{org}` segment (set by the auth hook). */
export function orgOf(request: FastifyRequest): Org {
  if (request.org === null) throw new Error(`route ${request.routeOptions.url ?? ''} has no {org} segment`);
  return request.org;
}

export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('route is public but asked for the caller');
  return request.principal;
}
