// Repositories (reference §2.14), as sent in repo_info with trails, attestations and artifacts.
import { REPO_PROVIDERS } from '../../../../shared/schemas/values.ts';
import type { RoutePlugin } from '../context.ts';
import { orgOf } from '../auth.ts';
import { pageLinks, pageOf, pageQuery, paginationOf } from '../../views/paging.ts';
import { repoView } from '../../views/repos.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;
const repoParams = {
  type: 'object',
  required: ['org', 'name'],
  properties: { org: { type: 'string' }, name: { type: 'string' } },
} as const;

const listQuery = {
  type: 'object',
  properties: {
    ...pageQuery,
    name: { type: 'string' },
    search: { type: 'string' },
    provider: { type: 'string', enum: REPO_PROVIDERS },
    repo_id: { type: 'string' },
    sort_direction: { type: 'string', enum: ['asc', 'desc'] },
  },
} as const;

const getQuery = {
  type: 'object',
  properties: { provider: { type: 'string', enum: REPO_PROVIDERS }, id: { type: 'string' } },
} as const;

/**
 * A repo name with its slashes raw (`owner/name`, `group/subgroup/name`), as clients put it in the
 * path (reference §8.1): the rest of the path after the org. Undocumented beside `{name}`, which
 * OpenAPI cannot give a slash and which takes the percent-encoded form.
 */
const repoPathParams = {
  type: 'object',
  required: ['org', '*'],
  properties: { org: { type: 'string' }, '*': { type: 'string' } },
} as const;

export const repoRoutes: RoutePlugin = (app, { context, services }, done) => {
  app.get('/repos/:org', { schema: { params: orgParams, querystring: listQuery } }, async (request) => {
    const { page, perPage, offset } = pageOf(request.query);
    const { total, repos } = await services.repos.pageOf(orgOf(request), request.query, offset, perPage);
    const pagination = paginationOf(total, page, perPage);
    return {
      repos: repos.map(({ info, tags }) => repoView(info, tags)),
      page,
      per_page: perPage,
      total_pages: pagination.page_count,
      total_count: total,
      _links: pageLinks(context.publicUrl(), request.url, pagination),
    };
  });

  // Literal segments: they win over the repo named `{name}` (reference §8.4).
  app.get('/repos/:org/tags', { schema: { params: orgParams } }, async (request) =>
    services.repos.tagOptions(orgOf(request)),
  );
  app.get('/repos/:org/filter-options', { schema: { params: orgParams } }, async (request) =>
    services.repos.filterOptions(orgOf(request)),
  );

  app.get('/repos/:org/:name', { schema: { params: repoParams, querystring: getQuery } }, async (request) => {
    const { info, tags } = await services.repos.named(orgOf(request), request.params.name, request.query);
    return repoView(info, tags);
  });

  app.get(
    '/repos/:org/*',
    { schema: { hide: true, params: repoPathParams, querystring: getQuery } },
    async (request) => {
      const { info, tags } = await services.repos.named(orgOf(request), request.params['*'], request.query);
      return repoView(info, tags);
    },
  );
  done();
};
