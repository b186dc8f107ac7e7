// Routes about the server itself: the readiness probe (outside /api/v2, plain text) and the
// OpenAPI document generated from every route's schema. Both are public.
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../context.ts';

export const metaRoutes: FastifyPluginAsync<RouteOptions> = async (app) => {
  app.get('/ready', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send('OK'),
  );
  app.get('/api/v2/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
};
