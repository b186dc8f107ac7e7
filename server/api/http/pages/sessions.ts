// Browser sessions of the pages: a signed-in key is kept on the server, behind a random id in an
// HttpOnly, SameSite=Strict cookie, so the key itself never travels in a URL or is readable by a
// page. Sessions end on sign-out, after eight hours, or when the server stops.
//
// Memory is bounded without one key's sign-ins ending anyone else's session: a key keeps at most
// MAX_PER_KEY sessions (its own oldest goes first), and once MAX_SESSIONS are open, expired ones
// are swept and, if none expired, a new sign-in is refused until some end.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const COOKIE = 'cev_session';
const LIFETIME_MS = 8 * 60 * 60 * 1000;
export const MAX_SESSIONS = 10_000;
/** Browsers and tabs one key signs in from at once. */
export const MAX_PER_KEY = 20;

interface Session {
  key: string;
  expiresAt: number;
}

export class Sessions {
  private readonly byId = new Map<string, Session>();
  /** Each key's session ids, oldest first (a Set keeps insertion order). */
  private readonly idsByKey = new Map<string, Set<string>>();

  /** Opens a session for `key`: its id, or undefined when the server holds as many as it may. */
  open(key: string, now = Date.now()): string | undefined {
    const own = this.idsByKey.get(key) ?? new Set<string>();
    if (own.size >= MAX_PER_KEY) this.close(own.values().next().value!);
    else if (this.byId.size >= MAX_SESSIONS) {
      this.sweep(now);
      if (this.byId.size >= MAX_SESSIONS) return undefined;
    }
    const id = randomBytes(32).toString('base64url');
    this.byId.set(id, { key, expiresAt: now + LIFETIME_MS });
    this.idsByKey.set(key, own.add(id));
    return id;
  }

  /** Starts a session for `key` and sets its cookie on the reply; false when none can be opened now. */
  start(reply: FastifyReply, key: string): boolean {
    const id = this.open(key);
    if (id === undefined) return false;
    reply.header('set-cookie', `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${LIFETIME_MS / 1000}`);
    return true;
  }

  /** The key of a live session id. */
  keyOfId(id: string, now = Date.now()): string | undefined {
    const session = this.byId.get(id);
    if (session === undefined) return undefined;
    if (session.expiresAt < now) {
      this.close(id);
      return undefined;
    }
    return session.key;
  }

  /** The key of the request's live session, if it has one. */
  keyOf(request: FastifyRequest): string | undefined {
    const id = sessionIdOf(request);
    return id === undefined ? undefined : this.keyOfId(id);
  }

  end(request: FastifyRequest, reply: FastifyReply): void {
    const id = sessionIdOf(request);
    if (id !== undefined) this.close(id);
    reply.header('set-cookie', `${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
  }

  private close(id: string): void {
    const session = this.byId.get(id);
    if (session === undefined) return;
    this.byId.delete(id);
    const own = this.idsByKey.get(session.key)!;
    own.delete(id);
    if (own.size === 0) this.idsByKey.delete(session.key);
  }

  private sweep(now: number): void {
    for (const [id, session] of this.byId) if (session.expiresAt < now) this.close(id);
  }
}

function sessionIdOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}
