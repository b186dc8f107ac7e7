// Authentication and authorisation for everything under /api/v2 (spec §Authentication,
// reference §1.10): the key of a Bearer or Basic (the key as username) header, handed with the
// route's operation and org to the access service (services/access.ts), which answers the caller
// and the org or the refusal, all before the body is read.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Services } from '../services/index.ts';
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
function refuseRoutesWithoutRule(app: FastifyInstance, access: Services['access']): void {
  const routes: RouteOptions[] = [];
  // Collected, then checked once every plugin's onRoute hook has run (the API reference's marks its routes public).
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.addHook('onReady', (done) => {
    const unruled = routes.filter(
      (route) =>
        route.config?.public !== true && [route.method].flat().some((method) => !access.isRuled(method, route.url)),
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

export function registerAuth(app: FastifyInstance, access: Services['access']): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('org', null);
  refuseRoutesWithoutRule(app, access);
  app.addHook('onRequest', async (request) => {
    if (request.is404 || request.routeOptions.config.public === true) return;
    const { principal, org } = await access.granted({
      method: request.method,
      url: request.routeOptions.url ?? '',
      key: presentedKey(request.headers.authorization),
      orgName: (request.params as Record<string, string | undefined>).org,
    });
    request.principal = principal;
    request.org = org;
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
