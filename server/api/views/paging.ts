// Page arithmetic and the query schemas shared by list routes (spec endpoint 4, reference §1.4):
// every paged list reads its page and per_page through pageQueryOf and pageOf, so a page number
// no list can reach (`page=1e309` reads as Infinity) is refused the same way everywhere.
import { limits } from '../../../shared/limits.ts';

export interface Pagination {
  total: number;
  page: number;
  per_page: number;
  page_count: number;
}

export function paginationOf(total: number, page: number, perPage: number): Pagination {
  return { total, page, per_page: perPage, page_count: Math.ceil(total / perPage) };
}

/** The query properties of a paged list whose pages hold at most `maxPerPage` items. */
export function pageQueryOf<N extends number>(maxPerPage: N) {
  return {
    page: { type: 'integer', minimum: 1, maximum: limits.maxPage },
    per_page: { type: 'integer', minimum: 1, maximum: maxPerPage },
  } as const;
}

export const pageQuery = pageQueryOf(100);

export interface PageParams {
  page?: number;
  per_page?: number;
}

/** Page and size with defaults (1, 20); `requested` says whether the client asked for paging at all. */
export function pageOf(
  query: PageParams,
  defaultPerPage = 20,
): { page: number; perPage: number; offset: number; requested: boolean } {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? defaultPerPage;
  // A page far past the end is an empty page, not a number too large for the database to bind.
  const offset = Math.min((page - 1) * perPage, Number.MAX_SAFE_INTEGER);
  return { page, perPage, offset, requested: query.page !== undefined || query.per_page !== undefined };
}

/**
 * `_links` of a paged list (reference §1.4): absolute URLs of this page, the first, the last, and
 * the neighbours that exist. Every other query parameter of the request is kept as sent, in its
 * order; page and per_page come last.
 */
export function pageLinks(
  baseUrl: string,
  requestUrl: string,
  pagination: Pagination,
): Record<string, { href: string }> {
  const url = new URL(requestUrl, baseUrl);
  url.searchParams.delete('page');
  url.searchParams.delete('per_page');
  const href = (page: number): { href: string } => {
    const target = new URL(url);
    target.searchParams.append('page', String(page));
    target.searchParams.append('per_page', String(pagination.per_page));
    return { href: `${baseUrl}${target.pathname}${target.search}` };
  };
  const last = Math.max(1, pagination.page_count);
  const links: Record<string, { href: string }> = { self: href(pagination.page), first: href(1), last: href(last) };
  if (pagination.page < last) links.next = href(pagination.page + 1);
  if (pagination.page > 1) links.prev = href(Math.min(pagination.page - 1, last));
  return links;
}
