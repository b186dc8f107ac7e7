// Random bodies, paths and queries against the environment, snapshot, policy, control and action
// routes: never a 5xx, always a JSON error body with a string message. Seeded and bounded.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startServer, type TestServer } from './harness.ts';

const json = fc.jsonValue({ maxDepth: 3 });
const segment = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    '-1',
    '#3',
    '~2',
    '@{now}',
    '@{5.minutes.ago}',
    '@{2024-13-45T99:99:99}',
    '0',
    '#-5',
    '99999999999999999999',
    '@{}',
    'prod',
  ),
);
const query = fc.dictionary(
  fc.constantFrom(
    'page',
    'per_page',
    'interval',
    'reverse',
    'start',
    'end',
    'start_ts',
    'end_ts',
    'repo_name',
    'event_types',
    'flow_names',
    'from_timestamp',
    'sort',
    'tag',
    'archived',
    'snappish1',
    'snappish2',
    'policy_name',
  ),
  fc.oneof(
    fc.string({ maxLength: 10 }),
    fc.constantFrom('1..x', '~5..NOW', 'NOW', '1hour', '-1', '1e400', '', 'started,bogus'),
  ),
  { maxKeys: 4 },
);

describe('environment routes under random input', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await server.json('PUT', '/api/v2/environments/acme', { name: 'prod', type: 'K8S', description: 'p' });
    await server.json('PUT', '/api/v2/environments/acme/prod/report/K8S', { artifacts: [] });
  });
  after(async () => {
    await server?.stop();
  });

  /** The error body's message, whatever the answer's body is. */
  function messageOf(body: unknown): unknown {
    return typeof body === 'object' && body !== null && 'message' in body ? body.message : undefined;
  }

  function assertClean(reply: { status: number; body: unknown; text: string }, what: string): void {
    assert.ok(reply.status < 500, `${what} → ${reply.status} ${reply.text}`);
    if (reply.status >= 400) assert.equal(typeof messageOf(reply.body), 'string', `${what} → ${reply.text}`);
  }

  it('never answers 5xx to random write bodies', async () => {
    const writes: Array<[string, string]> = [
      ['PUT', '/api/v2/environments/acme'],
      ['PATCH', '/api/v2/environments/acme/prod'],
      ['PUT', '/api/v2/environments/acme/prod/rename'],
      ['PUT', '/api/v2/environments/acme/prod/join'],
      ['POST', '/api/v2/environments/acme/prod/policies'],
      ['PUT', '/api/v2/environments/acme/prod/report/K8S'],
      ['PUT', '/api/v2/environments/acme/prod/report/server'],
      ['PATCH', '/api/v2/tags/acme/env/prod'],
      ['POST', '/api/v2/controls/acme'],
      ['PUT', '/api/v2/controls/acme/x'],
      ['PUT', '/api/v2/actions/acme'],
      ['PUT', '/api/v2/actions/acme/environments'],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), json, async ([method, path], body) => {
        assertClean(await server.json(method, path, body), `${method} ${path} ${JSON.stringify(body)}`);
      }),
      { seed: 42, numRuns: 150 },
    );
  });

  it('never answers 5xx to random report items', async () => {
    const item = fc.record(
      {
        podName: json,
        namespace: json,
        creationTimestamp: json,
        digests: fc.oneof(json, fc.dictionary(fc.string(), fc.string())),
        owners: json,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 4 }), async (artifacts) => {
        assertClean(
          await server.json('PUT', '/api/v2/environments/acme/prod/report/K8S', { artifacts }),
          JSON.stringify(artifacts),
        );
      }),
      { seed: 7, numRuns: 100 },
    );
  });

  it('never answers 5xx to random paths and queries of the read routes', async () => {
    const reads = [
      '/api/v2/snapshots/acme/prod',
      '/api/v2/environments/acme/prod/events',
      '/api/v2/environments/acme/prod/auditlog',
      '/api/v2/env-diff/acme',
      '/api/v2/environments/acme',
      '/api/v2/controls/acme',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...reads), query, segment, async (path, params, expr) => {
        const search = new URLSearchParams(params).toString();
        assertClean(await server.get(`${path}?${search}`), `${path}?${search}`);
        const one = `/api/v2/snapshots/acme/prod/${encodeURIComponent(expr)}`;
        assertClean(await server.get(one), one);
        const assertPath = `/api/v2/asserts/acme/fingerprint/${encodeURIComponent(expr)}?${search}`;
        assertClean(await server.get(assertPath), assertPath);
      }),
      { seed: 3, numRuns: 120 },
    );
  });
});
