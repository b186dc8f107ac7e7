// The interactive API reference at /api/v2/doc/: the field's renderer of our own OpenAPI document,
// served from the package (the build copies its static files to dist/api-reference/; no CDN), with
// "Try it out" sending requests to this server once a key is entered under Authorize. The pages
// are public like openapi.json; the requests they send carry the key like any other client's.
// The key lives in the page's memory only: nothing keeps it across a reload, and the page runs
// under a policy that lets it load and send nothing but to this server.
import { join } from 'node:path';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';
import { distDir } from '../../distDir.ts';

/** Where the build puts the renderer's files, next to the bundle that serves them. */
const staticDir = join(distDir, 'api-reference');

/** The plugin reads its own logo from beside its code (not in the bundle) unless given one; no top bar draws it. */
const noLogo = { type: 'image/svg+xml', content: Buffer.alloc(0) };

const theme = {
  title: 'Compliance Evidence API reference',
  // Earlier versions kept the authorized key in the browser's storage (persistAuthorization).
  js: [{ filename: 'forget-key.js', content: "localStorage.removeItem('authorized');\n" }],
};

/**
 * What the renderer needs and no more: its scripts and styles from this server (it sets styles
 * through the DOM, which a policy does not govern), images from here or data: URLs (the logo, its
 * icons), requests to this server alone; no frames, plugins, forms posted, or embedding elsewhere.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

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
    logo: noLogo,
    theme,
    transformSpecification: forReading,
    staticCSP: CONTENT_SECURITY_POLICY,
    uiConfig: {
      // Without the top bar, which only offers loading another document by URL (this page
      // documents this server alone) and draws the renderer's logo with an inline style.
      layout: 'BaseLayout',
      persistAuthorization: false,
      tryItOutEnabled: true,
      displayRequestDuration: true,
      docExpansion: 'list',
    },
  });
};
