// Search by fingerprint or commit, full or prefix (spec endpoint 10, reference §2.8).
import { orgOf } from '../auth.ts';
import type { RoutePlugin } from '../context.ts';

const searchParams = {
  type: 'object',
  required: ['org', 'value'],
  properties: { org: { type: 'string' }, value: { type: 'string', pattern: '^[a-fA-F0-9]{5,64}$' } },
} as const;

export const searchRoutes: RoutePlugin = (app, { services }, done) => {
  app.get('/search/:org/sha/:value', { schema: { params: searchParams } }, async (request) =>
    services.search.resultOf(orgOf(request), request.params.value),
  );
  done();
};
