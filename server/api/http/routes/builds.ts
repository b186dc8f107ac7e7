// Builds (reference §8.4): the org's artifacts as builds, and their statistics.
import { orgOf } from '../auth.ts';
import type { RoutePlugin } from '../context.ts';
import { pageOf, pageQuery } from '../../views/paging.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

const listQuery = {
  type: 'object',
  properties: { ...pageQuery, flow_name: { type: 'string' }, repo_name: { type: 'string' } },
} as const;

const statisticsQuery = {
  type: 'object',
  properties: {
    from_timestamp: { type: 'number', description: 'Only builds at or after this time (epoch seconds).' },
    to_timestamp: { type: 'number', description: 'Only builds at or before this time (epoch seconds).' },
  },
} as const;

export const buildRoutes: RoutePlugin = (app, { services }, done) => {
  app.get('/builds/:org', { schema: { params: orgParams, querystring: listQuery } }, async (request) =>
    services.builds.pageOf(orgOf(request), request.query, pageOf(request.query), request.url),
  );

  app.get('/builds/:org/statistics', { schema: { params: orgParams, querystring: statisticsQuery } }, async (request) =>
    services.builds.statisticsOf(orgOf(request), request.query),
  );
  done();
};
