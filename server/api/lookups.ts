// Lookups several route plugins share, each failing with the hosted service's exact message.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from './context.ts';
import { ApiError, notFound } from './errors.ts';
import type { Org } from './store/orgs.ts';
import type { Environment } from './store/environments.ts';

export function environmentNotFound(org: string, env: string): ApiError {
  return notFound(`Environment named '${env}' does not exist for organization '${org}'`);
}

/** A live environment, or 404 with the long message (get, archive, rename, snapshots, events…). */
export function environmentOr404(context: AppContext, org: Org, name: string): Environment {
  const environment = context.store.environments.byName(org.id, name);
  if (environment === undefined) throw environmentNotFound(org.name, name);
  return environment;
}

export function environmentHtmlUrl(context: AppContext, org: string, env: string): string {
  return `${context.publicUrl()}/${encodeURIComponent(org)}/environments/${encodeURIComponent(env)}`;
}

/**
 * `_links` of a paged list (reference §1.4): absolute URLs of this page, the first, the last, and
 * the neighbours that exist, keeping every other query parameter.
 */
export function pageLinks(context: AppContext, request: FastifyRequest, page: number, perPage: number, pageCount: number) {
  const url = new URL(request.url, context.publicUrl());
  const at = (n: number) => {
    const target = new URL(url);
    target.searchParams.set('page', String(n));
    target.searchParams.set('per_page', String(perPage));
    return { href: target.toString() };
  };
  const last = Math.max(1, pageCount);
  const links: Record<string, { href: string }> = { self: at(page), first: at(1), last: at(last) };
  if (page < last) links.next = at(page + 1);
  if (page > 1) links.prev = at(Math.min(page - 1, last));
  return links;
}
