// Authentication and authorisation for everything under /api/v2 (spec §Authentication,
// reference §1.10): Bearer or Basic (the key as username), then org access, then the role's right
// to the route's `access` (GET routes default to 'read', others to 'write').
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { keyHash } from '../apiKeys.ts';
import { ApiError, forbidden, notFound } from '../errors.ts';
import type { ConfiguredKey } from '../options.ts';
import type { Store } from '../store/index.ts';
import type { Org } from '../store/orgs.ts';
import type { Role } from '../store/serviceAccounts.ts';

/** What a route needs: read; write (member); report (environments and snapshots); accounts; admin. */
export type Access = 'read' | 'write' | 'report' | 'accounts' | 'admin';

export interface Principal {
  /** Shown as created_by / reported_by. */
  name: string;
  role: Role;
  orgs: ReadonlySet<string> | 'all';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Served without credentials (readiness, OpenAPI, schemas). */
    public?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    org: Org | null;
  }
}

const rights: Record<Role, ReadonlySet<Access>> = {
  reader: new Set<Access>(['read']),
  snapshotter: new Set<Access>(['read', 'report', 'accounts']),
  member: new Set<Access>(['read', 'write', 'report', 'accounts']),
  admin: new Set<Access>(['read', 'write', 'report', 'accounts', 'admin']),
};

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
    byHash.set(keyHash(entry.key), {
      // Keys of --config are named by their place in the file: api-key-1, api-key-2...
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
      : { name: account.accountName, role: account.privilege, orgs: new Set([account.orgName]) };
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

function accessOf(request: FastifyRequest): Access {
  const configured = request.routeOptions.config.access;
  if (configured !== undefined) return configured;
  return request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
}

export function registerAuth(
  app: FastifyInstance,
  resolveKey: (key: string) => Promise<Principal | undefined>,
  store: Store,
): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('org', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404 || request.routeOptions.config.public === true) return;
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
    if (!rights[principal.role].has(accessOf(request))) throw forbidden();
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
