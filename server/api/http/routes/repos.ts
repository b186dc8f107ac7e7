// Repositories (reference §2.14), as sent in repo_info with trails, attestations and artifacts.
import type { FastifyPluginCallback } from 'fastify';
import { orgOf } from '../auth.ts';
import type { RouteOptions } from '../context.ts';
import { pageLinks, pageOf, pageQuery, paginationOf } from '../../views/paging.ts';
import { badRequest, notFound } from '../../errors.ts';

const listQuery = {
  type: 'object',
  properties: {
    ...pageQuery,
    name: { type: 'string' },
    search: { type: 'string' },
    provider: { type: 'string' },
    repo_id: { type: 'string' },
    sort_direction: { type: 'string', enum: ['asc', 'desc'] },
  },
} as const;

const getQuery = { type: 'object', properties: { provider: { type: 'string' }, id: { type: 'string' } } } as const;

function repoView(info: Record<string, unknown>, tags: Record<string, string>): Record<string, unknown> {
  return {
    id: info.id ?? null,
    name: info.name,
    url: info.url ?? null,
    provider: info.provider ?? null,
    description: info.description ?? null,
    namespace_path: info.namespace_path ?? [],
    additional_info: info.additional_info ?? {},
    tags,
  };
}

export const repoRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;
  const tagsOf = async (orgId: number, repo: Record<string, unknown>): Promise<Record<string, string>> =>
    typeof repo.id === 'string' ? await store.repos.tags(orgId, repo.id) : {};

  app.get<{
    Params: { org: string };
    Querystring: {
      page?: number;
      per_page?: number;
      name?: string;
      search?: string;
      provider?: string;
      repo_id?: string;
      sort_direction?: 'asc' | 'desc';
    };
  }>('/repos/:org', { schema: { querystring: listQuery } }, async (request) => {
    const org = orgOf(request);
    const query = request.query;
    const repos = (await store.repos.all(org.id))
      .filter((repo) => query.name === undefined || repo.name === query.name)
      .filter(
        (repo) => query.search === undefined || String(repo.name).toLowerCase().includes(query.search.toLowerCase()),
      )
      .filter((repo) => query.provider === undefined || repo.provider === query.provider)
      .filter((repo) => query.repo_id === undefined || repo.id === query.repo_id)
      .sort((a, b) => (query.sort_direction === 'desc' ? -1 : 1) * String(a.name).localeCompare(String(b.name)));
    const { page, perPage, offset } = pageOf(query);
    const pagination = paginationOf(repos.length, page, perPage);
    return {
      repos: await Promise.all(
        repos.slice(offset, offset + perPage).map(async (repo) => repoView(repo, await tagsOf(org.id, repo))),
      ),
      page,
      per_page: perPage,
      total_pages: pagination.page_count,
      total_count: repos.length,
      _links: pageLinks(context.publicUrl(), request.url, pagination),
    };
  });

  app.get<{ Params: { org: string; name: string }; Querystring: { provider?: string; id?: string } }>(
    '/repos/:org/:name',
    { schema: { querystring: getQuery } },
    async (request) => {
      const org = orgOf(request);
      const { name } = request.params;
      const matches = (await store.repos.all(org.id))
        .filter((repo) => repo.name === name)
        .filter((repo) => request.query.provider === undefined || repo.provider === request.query.provider)
        .filter((repo) => request.query.id === undefined || repo.id === request.query.id);
      if (matches.length === 0) throw notFound(`Repo '${name}' not found`);
      if (matches.length > 1) {
        const providers = [
          ...new Set(matches.map((repo) => (typeof repo.provider === 'string' ? repo.provider : 'unknown'))),
        ].join(', ');
        throw badRequest(
          `Multiple repos named '${name}' exist (${providers}). Specify the 'provider' (or the 'id') to choose one.`,
        );
      }
      return repoView(matches[0], await tagsOf(org.id, matches[0]));
    },
  );
  done();
};
