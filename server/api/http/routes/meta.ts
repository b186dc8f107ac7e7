// Routes about the server itself: the readiness probe (outside /api/v2, plain text), the OpenAPI
// document generated from every route's schema, and the shared JSON Schemas. All are public.
import type { FastifyPluginCallback } from 'fastify';
import { schemas } from '../../../../shared/schemas/index.ts';
import type { RouteOptions } from '../context.ts';
import { notFound } from '../../errors.ts';

/** Schemas by the path of their `$id` after `/schemas/` (`flow-template/v1`), plus the hosted service's name for the policy schema. */
const schemaByPath = new Map<string, unknown>();
for (const schema of Object.values(schemas))
  schemaByPath.set(new URL(schema.$id).pathname.replace(/^\/schemas\//, ''), schema);
schemaByPath.set('environment-policy/v1', schemas['env-policy']);

export const metaRoutes: FastifyPluginCallback<RouteOptions> = (app, { services }, done) => {
  // Ready while the database answers: a load balancer then sends requests to the instances that can serve them.
  app.get('/ready', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    const readiness = await services.readiness.now();
    return reply
      .code(readiness.ready ? 200 : 503)
      .type('text/plain; charset=utf-8')
      .send(
        !readiness.ready
          ? 'the database is unavailable'
          : readiness.warning === undefined
            ? 'OK'
            : `OK\nwarning: ${readiness.warning}`,
      );
  });
  app.get('/api/v2/openapi.json', { config: { public: true }, schema: { hide: true } }, () => app.swagger());
  app.get('/api/v2/schemas', { config: { public: true }, schema: { hide: true } }, () =>
    [...schemaByPath.keys()].sort(),
  );
  app.get<{ Params: { '*': string } }>(
    '/api/v2/schemas/*',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const schema = schemaByPath.get(request.params['*'].replace(/\/+$/, ''));
      if (schema === undefined)
        throw notFound(`No schema named '${request.params['*']}'. GET /api/v2/schemas lists them.`);
      return reply.type('application/schema+json; charset=utf-8').send(schema);
    },
  );
  done();
};
