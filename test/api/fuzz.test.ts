// Seeded, bounded fuzzing of every route of the OpenAPI document: random paths, queries, headers
// and bodies never get a 5xx, and every error is a JSON body with a string message.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { valueAt } from './valueAt.ts';
import { startServer, type TestServer } from './harness.ts';
import { beginTrail, createFlow } from './fixtures.ts';
import type { OpenApiDocument } from './answers.ts';

const SEED = Number(process.env.CEV_FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.CEV_FUZZ_RUNS ?? 400);

const segment = fc.oneof(
  fc.constantFrom(
    'acme',
    'flow',
    'trail',
    'default',
    'x',
    '-1',
    '0',
    '%00',
    '%2F',
    '..',
    '%E2%82%AC',
    'a'.repeat(300),
    '%25',
    '~',
    'null',
    '[]',
  ),
  fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
  fc.stringMatching(/^[a-f0-9]{5,64}$/),
);

const queryValue = fc.oneof(
  fc.constantFrom('', '0', '-1', '1', '100', '101', 'abc', '1.5', 'true', 'null', '%00', '9'.repeat(40)),
  fc.string({ maxLength: 20 }),
);
const queryKey = fc.constantFrom(
  'page',
  'per_page',
  'sort',
  'sort_direction',
  'search_by_name',
  'fingerprint',
  'flow_tag',
  'from_timestamp',
  'to_timestamp',
  'flow_name',
  'repo_name',
  'attestation_id',
  'after',
  'name_regex',
  'tag',
  'version',
  'interval',
  'reverse',
  'x',
);

const jsonBody = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.constantFrom(
    'null',
    '{',
    '[1,',
    '"\\u0000"',
    '{"__proto__":{"a":1}}',
    '{"name":"ok","description":"d","privilege":"admin"}',
  ),
);

type Body = { contentType?: string; payload?: string | Uint8Array };

const body: fc.Arbitrary<Body> = fc.oneof(
  fc.constant({}),
  jsonBody.map((payload) => ({ contentType: 'application/json', payload })),
  fc.string({ maxLength: 200 }).map((payload) => ({ contentType: 'text/plain', payload })),
  fc.uint8Array({ maxLength: 300 }).map((payload) => ({ contentType: 'application/octet-stream', payload })),
  fc
    .tuple(fc.constantFrom('data_json', 'template_file', 'attachment_file', 'payload', 'policy_file', 'x'), jsonBody)
    .map(([name, value]) => ({
      contentType: 'multipart/form-data; boundary=fuzzboundary',
      payload: `--fuzzboundary\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n--fuzzboundary--\r\n`,
    })),
  fc
    .string({ maxLength: 100 })
    .map((payload) => ({ contentType: 'multipart/form-data; boundary=fuzzboundary', payload })),
  fc.constant({ contentType: 'multipart/form-data', payload: 'no boundary' }),
);

function fill(template: string, segments: readonly string[]): string {
  let index = 0;
  return template.replace(/\{[^}]+\}/g, () => segments[index++ % segments.length]);
}

describe('fuzz: never a 5xx, always a JSON error body', function () {
  this.timeout(180_000);
  let server: TestServer;
  let routes: Array<{ method: string; path: string }>;

  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'flow');
    await beginTrail(server, 'acme', 'flow', 'trail');
    const document = (await server.get<OpenApiDocument>('/api/v2/openapi.json', { key: null })).body;
    routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => ['get', 'put', 'post', 'patch', 'delete'].includes(method))
        .map((method) => ({ method: method.toUpperCase(), path: `/api/v2${path}` })),
    );
    assert.ok(routes.length >= 30, `${routes.length} routes documented`);
  });
  after(async () => {
    await server?.stop();
  });

  it(`holds for ${RUNS} seeded random requests across every documented route and some unknown ones`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 5, arbitrary: fc.integer({ min: 0, max: 10_000 }).map((index) => routes[index % routes.length]) },
          {
            weight: 1,
            arbitrary: fc.record({
              method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
              path: fc.constantFrom('/api/v2/{a}', '/api/v2/{a}/{b}/{c}', '/{a}', '/api/v1/{a}'),
            }),
          },
        ),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }),
        fc.constantFrom('admin', 'none', 'bad', 'basic', 'garbage'),
        body,
        async (route, segments, query, auth, requestBody) => {
          const params = new URLSearchParams(query);
          const path = `${fill(route.path, segments)}${query.length > 0 ? `?${params.toString()}` : ''}`;
          const headers: Record<string, string> = {};
          if (auth === 'admin') headers.authorization = `Bearer ${server.key}`;
          if (auth === 'bad') headers.authorization = 'Bearer not-a-key';
          if (auth === 'basic') headers.authorization = `Basic ${Buffer.from(`${server.key}:`).toString('base64')}`;
          if (auth === 'garbage') headers.authorization = 'Basic ###';
          if (requestBody.contentType !== undefined) headers['content-type'] = requestBody.contentType;
          const method = route.method;
          const payload = method === 'GET' ? undefined : requestBody.payload;
          const reply = await server.raw(method, path, payload, headers);
          assert.ok(reply.status < 500, `${method} ${path} → ${reply.status} ${reply.text.slice(0, 300)}`);
          if (reply.status >= 400) {
            assert.equal(
              typeof valueAt(reply.body, 'message'),
              'string',
              `${method} ${path} → ${reply.status} non-JSON error: ${reply.text.slice(0, 200)}`,
            );
          }
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    assert.equal((await server.get('/ready', { key: null })).text, 'OK', 'still serving');
  });
});
