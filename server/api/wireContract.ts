// Puts the shared wire contract (shared/contract) on every route as it is registered: each
// operation's summary and the schema of every answer, so the OpenAPI document documents them all.
import type { FastifyInstance } from 'fastify';
import { errorResponses, operationKeyOf, operations } from '../../shared/contract/index.ts';

export function applyWireContract(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const method = Array.isArray(route.method) ? route.method[0] : route.method;
    const key = operationKeyOf(String(method), route.url);
    const operation = key === undefined ? undefined : operations[key];
    if (operation === undefined) return;
    route.schema = { ...route.schema, summary: operation.summary, response: { ...operation.responses, ...errorResponses } };
  });
  // Bodies stay encoded by JSON.stringify, not by a serializer compiled from the response schemas:
  // such a serializer coerces a value that breaks its schema (null to "", a string to a number)
  // instead of failing, which would hide a drift that the contract tests exist to catch.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}
