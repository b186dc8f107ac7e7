// Deployments (reference §8.4): the org's, an environment's and a repo's, the latest of an artifact
// in an environment, an environment's deployment frequency, a repo's statistics and its artifacts
// running now. Each path has literal segments of its own, which win over our `{name}` routes.
import { orgOf } from '../auth.ts';
import type { RoutePlugin } from '../context.ts';
import { HEX_PREFIX } from '../names.ts';
import { pageOf, pageQuery } from '../../views/paging.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

const envParams = {
  type: 'object',
  required: ['org', 'env_name'],
  properties: { org: { type: 'string' }, env_name: { type: 'string' } },
} as const;

const artifactParams = {
  type: 'object',
  required: ['org', 'env_name', 'fingerprint'],
  properties: {
    org: { type: 'string' },
    env_name: { type: 'string' },
    fingerprint: { type: 'string', pattern: HEX_PREFIX },
  },
} as const;

const repoParams = {
  type: 'object',
  required: ['org', 'repo'],
  properties: { org: { type: 'string' }, repo: { type: 'string' } },
} as const;

const liveParams = {
  type: 'object',
  required: ['org', 'repo_name'],
  properties: { org: { type: 'string' }, repo_name: { type: 'string' } },
} as const;

const window = {
  from_timestamp: { type: 'number', description: 'Only deployments at or after this time (epoch seconds).' },
  to_timestamp: { type: 'number', description: 'Only deployments at or before this time (epoch seconds).' },
} as const;

const listQuery = {
  type: 'object',
  properties: {
    ...pageQuery,
    ...window,
    flow_name: { type: 'string', description: 'Only artifacts attested in this flow.' },
  },
} as const;

const orgListQuery = {
  type: 'object',
  properties: { ...listQuery.properties, environment_name: { type: 'string' } },
} as const;

const frequencyQuery = {
  type: 'object',
  properties: {
    from_timestamp: { type: 'number', description: "The window's start; 30 days before its end by default." },
    to_timestamp: { type: 'number', description: "The window's end; now by default." },
    interval: { type: 'string', enum: ['day', 'week'], description: 'The buckets counted; `day` by default.' },
  },
} as const;

export const deploymentRoutes: RoutePlugin = (app, { services }, done) => {
  const { deployments } = services;

  app.get('/deployments/:org', { schema: { params: orgParams, querystring: orgListQuery } }, async (request) =>
    deployments.ofOrg(orgOf(request), request.query, pageOf(request.query), request.url),
  );

  app.get('/deployments/:org/:env_name/:fingerprint', { schema: { params: artifactParams } }, async (request) =>
    deployments.latestOf(orgOf(request), request.params.env_name, request.params.fingerprint),
  );

  app.get(
    '/environments/:org/:env_name/deployments',
    { schema: { params: envParams, querystring: listQuery } },
    async (request) =>
      deployments.ofEnvironment(
        orgOf(request),
        request.params.env_name,
        request.query,
        pageOf(request.query),
        request.url,
      ),
  );

  app.get(
    '/environments/:org/:env_name/deployment_frequency',
    { schema: { params: envParams, querystring: frequencyQuery } },
    async (request) => deployments.frequencyOf(orgOf(request), request.params.env_name, request.query),
  );

  app.get(
    '/repos/:org/:repo/deployments',
    { schema: { params: repoParams, querystring: listQuery } },
    async (request) =>
      deployments.ofRepo(orgOf(request), request.params.repo, request.query, pageOf(request.query), request.url),
  );

  app.get(
    '/repos/:org/:repo/deployment-statistics',
    { schema: { params: repoParams, querystring: { type: 'object', properties: window } } },
    async (request) => deployments.repoStatisticsOf(orgOf(request), request.params.repo, request.query),
  );

  app.get('/repos/:org/live-artifacts/:repo_name', { schema: { params: liveParams } }, async (request) =>
    deployments.liveArtifactsOf(orgOf(request), request.params.repo_name),
  );
  done();
};
