// Forms that change state (sign-in, sign-out) are taken only from this server's own pages. A
// cookie's SameSite keeps another site from riding a session, but not from starting one: a
// cross-site POST /sign-in with the attacker's key would sign the visitor in as the attacker
// (login CSRF). Browsers say where a request comes from: Sec-Fetch-Site, or else Origin. A
// request with neither is no browser's form post (a command-line client), which SameSite already
// leaves without the visitor's cookie.
import type { FastifyRequest } from 'fastify';

/** Where the request came from, when that is not this server's own pages; undefined when it is. */
export function foreignSourceOf(request: FastifyRequest, publicUrl: string): string | undefined {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) {
    // `none`: the visitor's own action (an address typed or bookmarked), which no other site can cause.
    if (site === 'same-origin' || site === 'none') return undefined;
    return site === 'same-site' ? 'another site of the same domain' : 'another site';
  }
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return 'a page without an origin';
  }
  // The address the visitor used (Host), or the one the server is known by (--public-url).
  if (from.host === request.headers.host || from.origin === new URL(publicUrl).origin) return undefined;
  return from.origin;
}
