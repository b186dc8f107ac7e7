// Puts the shared wire contract (shared/contract) on every route as it is registered: each
// operation's summary and the schema of every answer, so the OpenAPI document documents them all.
import type { FastifyInstance } from 'fastify';
import { errorResponses, operationKeyOf, operations } from '../../../shared/contract/index.ts';

/** The OpenAPI tag of the operations this server adds to the API v2. */
export const PROJECT_EXTENSION = 'Project extension';

export function applyWireContract(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const method = Array.isArray(route.method) ? route.method[0] : route.method;
    const key = operationKeyOf(String(method), route.url);
    const operation = key === undefined ? undefined : operations[key];
    if (operation === undefined) return;
    route.schema = {
      ...route.schema,
      summary: operation.summary,
      response: { ...operation.responses, ...errorResponses },
    };
    if (operation.deprecated === true) route.schema.deprecated = true;
    if (operation.extension === true) {
      route.schema.tags = [PROJECT_EXTENSION];
      route.schema.description =
        'Not part of the Compliance Evidence Service API v2: an addition of this server, read-only, with the access of reading trails and snapshots.';
    }
  });
  // Bodies stay encoded by JSON.stringify, not by a serializer compiled from the response schemas:
  // such a serializer coerces a value that breaks its schema (null to "", a string to a number)
  // instead of failing, which would hide a drift that the contract tests exist to catch.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

type Operations = Record<
  string,
  { requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> } } | undefined
>;

/**
 * The OpenAPI document as the contract has it: fastify's generator marks every body required, but
 * an operation whose body fields are all optional also accepts no body at all, or the JSON `null`
 * that clients send for a POST without payload.
 */
export function documentOptionalBodies<D extends { paths?: object }>(document: D): D {
  for (const [path, item] of Object.entries(document.paths ?? {}) as Array<[string, Operations | undefined]>) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      const body = operation?.requestBody;
      if (body === undefined || operations[`${method.toUpperCase()} ${path}`]?.optionalBody !== true) continue;
      body.required = false;
      for (const media of Object.values(body.content ?? {})) media.schema = { anyOf: [media.schema, { type: 'null' }] };
    }
  }
  return document;
}

/**
 * Marks each operation whose answer's hosted shape is not known (the contract's `inferred`) with
 * `x-shape: inferred`, so that a client generated from the document knows which shapes were built
 * here from the request and the spec's resources.
 */
export function documentInferredShapes<D extends { paths?: object }>(document: D): D {
  for (const [path, item] of Object.entries(document.paths ?? {}) as Array<[string, Operations | undefined]>) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (operation !== undefined && operations[`${method.toUpperCase()} ${path}`]?.inferred === true)
        Object.assign(operation, { 'x-shape': 'inferred' });
    }
  }
  return document;
}
