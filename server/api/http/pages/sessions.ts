// Browser sessions of the pages: a signed-in key is kept on the server, behind a random id in an
// HttpOnly, SameSite=Strict cookie, so the key itself never travels in a URL or is readable by a
// page. Sessions end on sign-out, after eight hours, or when the server stops.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const COOKIE = 'cev_session';
const LIFETIME_MS = 8 * 60 * 60 * 1000;
/** Bounds the memory a flood of sign-ins can take; the oldest session goes first. */
const MAX_SESSIONS = 10_000;

interface Session {
  key: string;
  expiresAt: number;
}

export class Sessions {
  private readonly byId = new Map<string, Session>();

  /** Starts a session for `key` and sets its cookie on the reply. */
  start(reply: FastifyReply, key: string): void {
    const id = randomBytes(32).toString('base64url');
    if (this.byId.size >= MAX_SESSIONS) this.byId.delete(this.byId.keys().next().value!);
    this.byId.set(id, { key, expiresAt: Date.now() + LIFETIME_MS });
    reply.header('set-cookie', `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${LIFETIME_MS / 1000}`);
  }

  /** The key of the request's live session, if it has one. */
  keyOf(request: FastifyRequest): string | undefined {
    const id = sessionIdOf(request);
    const session = id === undefined ? undefined : this.byId.get(id);
    if (session === undefined) return undefined;
    if (session.expiresAt < Date.now()) {
      this.byId.delete(id!);
      return undefined;
    }
    return session.key;
  }

  end(request: FastifyRequest, reply: FastifyReply): void {
    const id = sessionIdOf(request);
    if (id !== undefined) this.byId.delete(id);
    reply.header('set-cookie', `${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
  }
}

function sessionIdOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}
