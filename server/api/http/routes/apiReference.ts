// The interactive API reference at /api/v2/doc/: the field's renderer of our own OpenAPI document,
// served from the package (the build copies its static files to dist/api-reference/; no CDN), with
// "Try it out" sending requests to this server once a key is entered under Authorize. The pages
// are public like openapi.json; the requests they send carry the key like any other client's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';

/** Where the build puts the renderer's files, next to the bundle that serves them. */
const staticDir = join(__dirname, 'api-reference');

/** Our own mark instead of the renderer's (the .vsix ships resources/ next to dist/). */
const logo = { type: 'image/svg+xml', content: readFileSync(join(__dirname, '..', 'resources', 'activity-bar.svg')) };

// The top bar only offers loading another document by URL; this page documents this server alone.
const theme = {
  title: 'Compliance Evidence API reference',
  css: [{ filename: 'reference.css', content: '.swagger-ui .topbar { display: none; }' }],
};

type OpenApi = {
  info?: Record<string, unknown>;
  paths?: Record<string, Record<string, { tags?: string[] }>>;
  tags?: { name: string }[];
} & Record<string, unknown>;

/**
 * The groups a newcomer meets first, in the order of the quickstart's journey; the others follow
 * as the document lists them, and the legacy routes (`organizations/...`) come last.
 */
const journey = ['flows', 'trails', 'artifacts', 'attestations', 'environments', 'snapshots', 'search', 'policies'];
const rankOf = (tag: string) =>
  tag === 'organizations' ? Infinity : journey.includes(tag) ? journey.indexOf(tag) : journey.length;

/**
 * What the page shows: the routes grouped by resource (their first path segment: flows, trails,
 * environments...), under a line on how to send requests. openapi.json itself stays as generated.
 */
function forReading(document: Readonly<Record<string, unknown>>): OpenApi {
  const shown = document as OpenApi;
  for (const [path, operations] of Object.entries(shown.paths ?? {})) {
    const resource = path.split('/')[1] || 'server';
    for (const operation of Object.values(operations)) operation.tags ??= [resource];
  }
  const tags = new Set(
    Object.values(shown.paths ?? {}).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => operation.tags ?? []),
    ),
  );
  shown.tags = [...tags].sort((a, b) => rankOf(a) - rankOf(b)).map((name) => ({ name }));
  shown.info = {
    ...shown.info,
    description:
      'Every route of this server. Press **Authorize**, enter the API key (`cev serve` prints it on first start and keeps it in `.cev-data/admin-key`), then **Execute** sends the request to this server. The raw document is [openapi.json](/api/v2/openapi.json).',
  };
  return shown;
}

export const apiReferenceRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, public: true };
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/v2/doc',
    baseDir: staticDir,
    logo,
    theme,
    transformSpecification: forReading,
    uiConfig: { persistAuthorization: true, tryItOutEnabled: true, displayRequestDuration: true, docExpansion: 'list' },
  });
};
