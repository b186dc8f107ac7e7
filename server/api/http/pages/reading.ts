// How a page reads: with the session's key, from the JSON API in-process, so the API's own org
// access rules decide what a page may show; what the API does not answer (why a trail's
// attestations fail, searches by name, summaries) from a service, for an org the access service
// says the key may read. A signed-out visitor is sent to sign in; whatever the API refuses
// (another org's key, an unknown name, a bad index) is one "not found" page, which does not tell
// whether the thing exists.
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import type { Services } from '../../services/index.ts';
import type { Org } from '../../store/orgs.ts';
import { sendPage } from './layout.ts';
import { notFound, PageRefused, refusalPage } from './refusals.ts';
import { signInHrefFor } from './returnPath.ts';
import type { Sessions } from './sessions.ts';

export const PAGE_ROUTE = { config: { public: true }, schema: { hide: true } } as const;

/** Rows per page of every long list. */
export const PER_PAGE = 20;

export interface Answer {
  status: number;
  body: unknown;
}

export interface Reader {
  /** The API's answer to `GET /api/v2{path}` with this key. */
  get(path: string): Promise<Answer>;
  /** The raw answer, for downloads: its body a stream read as the page's client reads it. */
  raw(path: string): Promise<Download>;
  /** The org `name` for a service to read, when this key may read it; the page is refused as not found otherwise. */
  org(name: string): Promise<Org>;
}

/** What the pages are served with: the browser sessions, and the services they read through. */
export interface PageSite {
  sessions: Sessions;
  services: Services;
}

export interface Download {
  status: number;
  headers: Record<string, unknown>;
  /** Destroyed, it stops the API's answer and whatever that answer reads. */
  body: Readable;
}

/** A download's content-disposition: the API's (its file name), as an attachment, never rendered inline as a page of ours. */
export function downloadDisposition(headers: Record<string, unknown>, fallback: string): string {
  const given = headers['content-disposition'];
  return (typeof given === 'string' ? given : fallback).replace(/^inline/, 'attachment');
}

/** The body of a 200 answer, or a refusal of the page: not found for what the API will not show, 502 if it failed. */
export function bodyOf(answer: Answer, what: string): unknown {
  if (answer.status === 200) return answer.body;
  if (answer.status >= 500) throw new PageRefused(502, `The ${what} could not be read; try again.`);
  throw notFound(what);
}

/**
 * Registers a page: signed-out visitors go to sign in, the handler reads through the API with the
 * session's key, and a refusal becomes an error page with its status.
 */
export function pageRoute<Params, Query>(
  app: FastifyInstance,
  { sessions, services }: PageSite,
  path: string,
  handler: (
    reader: Reader,
    request: FastifyRequest<{ Params: Params; Querystring: Query }>,
    reply: FastifyReply,
  ) => Promise<FastifyReply>,
): void {
  app.get<{ Params: Params; Querystring: Query }>(path, PAGE_ROUTE, async (request, reply) => {
    const key = sessions.keyOf(request);
    // Signed in, the visitor comes back to this very page (returnPath.ts).
    if (key === undefined) return reply.code(303).header('location', signInHrefFor(request.url)).send();
    const headers = { authorization: `Bearer ${key}` };
    const reader: Reader = {
      get: async (apiPath) => {
        const answer = await app.inject({ method: 'GET', url: `/api/v2${apiPath}`, headers });
        let body: unknown;
        try {
          body = answer.json();
        } catch {
          body = answer.body;
        }
        return { status: answer.statusCode, body };
      },
      raw: async (apiPath) => {
        const answer = await app.inject({ method: 'GET', url: `/api/v2${apiPath}`, headers, payloadAsStream: true });
        const body = answer.stream();
        // The in-process answer learns only this way that its reader is gone (the page's client
        // went away): it then destroys its own stream, closing the file it reads.
        body.once('close', () => answer.raw.res.destroy());
        return { status: answer.statusCode, headers: answer.headers, body };
      },
      org: async (name) => {
        const org = await services.access.readableOrg(key, name);
        if (org === undefined) throw notFound('organization');
        return org;
      },
    };
    try {
      return await handler(reader, request, reply);
    } catch (error) {
      // A service's 4xx (a name gone since the API answered) is the same not found as the API's.
      const refusal =
        error instanceof PageRefused
          ? error
          : error instanceof ApiError && error.statusCode < 500
            ? notFound('page')
            : undefined;
      if (refusal === undefined) throw error;
      const org = (request.params as { org?: unknown }).org;
      return sendPage(reply, refusal.status, refusalPage(typeof org === 'string' ? org : undefined, refusal));
    }
  });
}

/** A `page` query value as a page number: a positive integer, else 1. */
export function pageNumberOf(value: unknown): number {
  const number = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return number >= 1 ? number : 1;
}
