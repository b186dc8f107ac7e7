// The fastify application: auth hook, one error handler, JSON 404s, multipart, OpenAPI, and one
// plugin per resource under /api/v2.
import { Socket } from 'node:net';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyPluginCallback } from 'fastify';
import { registerAuth } from './auth.ts';
import type { ConfiguredKey } from '../options.ts';
import { bodyFailure, bodySchemaNameOf, documentedSchemas } from './requestBodies.ts';
import type { AppContext, RouteOptions, RoutePlugin } from './context.ts';
import { servicesOf } from '../services/index.ts';
import { ApiError } from '../errors.ts';
import { isCheckedByRoute, MULTIPART_LIMITS } from './multipart.ts';
import { refuseDeepJson } from './jsonDepthLimit.ts';
import { dropEmptyValues, EMPTY_KEPT } from './emptyQueryValues.ts';
import { guardBodyRate, requestTimeOptions } from './requestLimits.ts';
import { artifactRoutes } from './routes/artifacts.ts';
import { attestationRoutes } from './routes/attestations.ts';
import { customTypeRoutes } from './routes/customTypes.ts';
import { flowRoutes } from './routes/flows.ts';
import { metaRoutes } from './routes/meta.ts';
import { landingRoutes } from './pages/landingRoutes.ts';
import { addressNotFound } from './pages/refusals.ts';
import { actionRoutes } from './routes/actions.ts';
import { apiReferenceRoutes } from './routes/apiReference.ts';
import { controlRoutes } from './routes/controls.ts';
import { environmentRoutes } from './routes/environments.ts';
import { policyRoutes } from './routes/policies.ts';
import { previewRoutes } from './routes/preview.ts';
import { reportRoutes } from './routes/reports.ts';
import { repoRoutes } from './routes/repos.ts';
import { searchRoutes } from './routes/search.ts';
import { serviceAccountRoutes } from './routes/serviceAccounts.ts';
import { snapshotRoutes } from './routes/snapshots.ts';
import { trailRoutes } from './routes/trails.ts';
import { userRoutes } from './routes/user.ts';
import { legacyNotificationRoutes } from './routes/legacyNotifications.ts';
import { auditPackageRoutes } from './routes/auditPackage.ts';
import { buildRoutes } from './routes/builds.ts';
import { deploymentRoutes } from './routes/deployments.ts';
import { organizationRoutes } from './routes/organizations.ts';
import {
  DATABASE_UNAVAILABLE,
  isDatabaseUnavailable,
  isUniqueViolation,
  isUnstorableText,
  STOPPING,
  storageFaultOf,
  UNEXPECTED,
} from '../faults.ts';
import { validationFailure } from './parameterErrors.ts';
import {
  applyWireContract,
  documentInferredShapes,
  documentOptionalBodies,
  PROJECT_EXTENSION,
} from './wireContract.ts';
import { limits } from '../../../shared/limits.ts';

/** Resource plugins mounted under /api/v2. */
const apiRoutes: Array<FastifyPluginCallback<RouteOptions> | RoutePlugin> = [
  legacyNotificationRoutes,
  auditPackageRoutes,
  serviceAccountRoutes,
  flowRoutes,
  trailRoutes,
  attestationRoutes,
  environmentRoutes,
  reportRoutes,
  snapshotRoutes,
  policyRoutes,
  previewRoutes,
  controlRoutes,
  actionRoutes,
  artifactRoutes,
  searchRoutes,
  customTypeRoutes,
  repoRoutes,
  deploymentRoutes,
  buildRoutes,
  organizationRoutes,
  userRoutes,
];

/** JSON request bodies: the JSON documents' limit of shared/limits.ts, which cev validate and the editor hold to too. */
const BODY_LIMIT = limits.jsonBytes;

const CONCURRENT_DUPLICATE = 'A concurrent request created the same resource; retry the request';

const UNSTORABLE_TEXT = 'Text in the request contains a NUL character (\\u0000), which cannot be stored';

interface Rendered {
  status: number;
  body: { message: string; errors?: Record<string, string> };
  retryAfter?: number;
}

function renderError(error: unknown): Rendered {
  if (error instanceof ApiError) return { status: error.statusCode, body: error.body };
  const fastifyError = error as {
    validation?: unknown;
    validationContext?: string;
    statusCode?: unknown;
    message?: unknown;
  };
  if (Array.isArray(fastifyError.validation)) {
    const failure = validationFailure(fastifyError.validation, fastifyError.validationContext);
    return { status: failure.statusCode, body: failure.body };
  }
  if (isUniqueViolation(error)) return { status: 409, body: { message: CONCURRENT_DUPLICATE } };
  const fault = storageFaultOf(error);
  if (fault !== undefined)
    return { status: fault.status, body: { message: fault.message }, retryAfter: fault.retryAfter };
  if (isDatabaseUnavailable(error)) return { status: 503, body: { message: DATABASE_UNAVAILABLE }, retryAfter: 1 };
  if (isUnstorableText(error)) return { status: 400, body: { message: UNSTORABLE_TEXT } };
  const status = typeof fastifyError.statusCode === 'number' ? fastifyError.statusCode : 500;
  if (status >= 400 && status < 500) return { status, body: { message: String(fastifyError.message) } };
  return { status: 500, body: { message: UNEXPECTED } };
}

/** Fastify's own ajv settings (coercion of query strings, defaults), plus every error with its input. */
const validators = new Ajv({
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: true,
  allErrors: true,
  verbose: true,
  strict: false,
});
addFormats(validators);
validators.addKeyword('x-checked-by-route');
validators.addKeyword(EMPTY_KEPT);

export interface AppOptions {
  context: AppContext;
  /** The keys the server was started with: the admin key and --config's. */
  configuredKeys: readonly ConfiguredKey[];
}

export async function buildApp({ context, configuredKeys }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...requestTimeOptions,
    logger: false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    // Requests that arrive while the server stops get the API's own 503 below, not fastify's body.
    return503OnClosing: false,
  });
  // First of the hooks, so that a request answered early (401, 403) is watched too.
  guardBodyRate(app);
  let stopping = false;
  app.addHook('preClose', (next) => {
    stopping = true;
    next();
  });
  // A response that finishes while the server stops (a download under way) closes its connection:
  // the stop waits for every connection, and one kept alive would hold it for the keep-alive time.
  app.addHook('onResponse', (request, _reply, next) => {
    if (stopping && request.raw.socket instanceof Socket) request.raw.socket.end();
    next();
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!stopping) return;
    return reply.code(503).header('connection', 'close').header('retry-after', '1').send({ message: STOPPING });
  });
  // A client may close its sending side once its request is sent: the answer still goes back once
  // its commit is on disk (Node's HTTP server would otherwise end the connection at once).
  (app.server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen = true;
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'body') return validators.compile(schema);
    if (isCheckedByRoute(schema)) return () => true;
    const name = bodySchemaNameOf(schema);
    if (name === undefined) return validators.compile(schema);
    return (data: unknown) => {
      const error = bodyFailure(name, data);
      return error === undefined ? true : { error };
    };
  });

  applyWireContract(app);
  app.setErrorHandler((error, request, reply) => {
    const { status, body, retryAfter } = renderError(error);
    if (status >= 500)
      console.error(`${request.method} ${request.url.split('?')[0]} → ${status}: ${body.message}\n`, error);
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });
  app.setNotFoundHandler(
    (request, reply) =>
      addressNotFound(request, reply) ??
      reply.code(404).send({
        message: `Not Found. You have requested this URI [${request.url.split('?')[0]}] but it does not exist on this server.`,
      }),
  );

  await app.register(fastifyMultipart, { limits: MULTIPART_LIMITS });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Compliance Evidence Service API (local server)', version: '2.0' },
      servers: [{ url: '/api/v2' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          basic: { type: 'http', scheme: 'basic' },
        },
      },
      security: [{ bearer: [] }, { basic: [] }],
      tags: [
        {
          name: PROJECT_EXTENSION,
          description:
            'Operations this server adds to the Compliance Evidence Service API v2: read-only previews for the editor.',
        },
      ],
    },
    // Components named by the schemas' titles (ControlPostInput, CreateEnvironmentPutInput, ...).
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) =>
        (typeof json.title === 'string' ? json.title : `def-${index}`).replace(/[^A-Za-z0-9._-]/g, ''),
    },
    transform: ({ schema, url }) => ({
      schema,
      url: url.startsWith('/api/v2') ? url.slice('/api/v2'.length) || '/' : url,
    }),
    transformObject: (document) =>
      'openapiObject' in document
        ? documentInferredShapes(documentOptionalBodies(document.openapiObject))
        : document.swaggerObject,
  });

  // Before any schema check walks a JSON body (multipart JSON parts are checked where they are read),
  // and before the query's: its empty free-text values filter nothing (emptyQueryValues.ts).
  app.addHook('preValidation', (request, _reply, next) => {
    refuseDeepJson(request.body, 'body');
    dropEmptyValues(request.query, request.routeOptions.schema?.querystring ?? {});
    next();
  });

  for (const schema of documentedSchemas) app.addSchema(schema);
  const services = servicesOf({ ...context, configuredKeys });
  registerAuth(app, services.access);
  await app.register(metaRoutes, { context, services });
  await app.register(landingRoutes, { context, services });
  await app.register(apiReferenceRoutes);
  for (const plugin of apiRoutes) await app.register(plugin, { context, services, prefix: '/api/v2' });
  return app;
}
