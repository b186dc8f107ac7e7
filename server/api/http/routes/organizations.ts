// Organizations (reference §8.4): the one a path names.
import { orgOf } from '../auth.ts';
import type { RoutePlugin } from '../context.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

export const organizationRoutes: RoutePlugin = (app, { services }, done) => {
  app.get('/organizations/:org', { schema: { params: orgParams } }, (request) =>
    services.organizations.answerOf(orgOf(request)),
  );
  done();
};
