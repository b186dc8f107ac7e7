// Trails: begin, get, list per flow (spec endpoint 4) and per org (reference §2.2, §3, §6 items 9–14).
import assert from 'node:assert/strict';
import type { Artifact, ErrorBody, Page, SearchResult, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint, WORKED_TEMPLATE } from './fixtures.ts';

const PUBLIC = 'https://evidence.example.test';

describe('trails', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      args: ['--org', 'acme', '--org', 'acme-shared', '--org', 'empty', '--public-url', PUBLIC],
    });
    await createFlow(server, 'acme-shared', 'worked', WORKED_TEMPLATE);
    await createFlow(server, 'acme', 'many');
    for (let index = 0; index < 45; index++)
      await beginTrail(server, 'acme', 'many', `trail-${String(index).padStart(2, '0')}`);
  });
  after(async () => {
    await server?.stop();
  });

  it('begins a trail (201) and begins it again as an update (200), replacing description only when sent', async () => {
    await createFlow(server, 'acme', 'begin');
    const first = await server.multipart('PUT', '/api/v2/trails/acme/begin', {
      data_json: JSON.stringify({ name: 'test-123', description: 'first' }),
    });
    assert.equal(first.status, 201);
    assert.equal(typeof first.body, 'string');
    const again = await server.multipart('PUT', '/api/v2/trails/acme/begin', {
      data_json: JSON.stringify({ name: 'test-123' }),
    });
    assert.equal(again.status, 200);
    const trail = (await server.get<Trail>('/api/v2/trails/acme/begin/test-123')).body;
    assert.equal(trail.description, 'first');
    assert.deepEqual(
      trail.events.map((event: { type: string }) => event.type),
      ['trail_reported', 'trail_updated'],
    );
    await server.multipart('PUT', '/api/v2/trails/acme/begin', {
      data_json: JSON.stringify({ name: 'test-123', description: 'second' }),
    });
    assert.equal((await server.get<Trail>('/api/v2/trails/acme/begin/test-123')).body.description, 'second');
  });

  it('keeps the trail fields it was given, and refuses them as a JSON body (multipart only, reference §2.2)', async () => {
    await createFlow(server, 'acme', 'json-begin');
    const git = {
      sha1: commit('json'),
      message: 'fix',
      author: 'dev',
      branch: 'main',
      timestamp: 1700000000,
      url: 'https://git.example.test/c',
    };
    const fields = {
      name: 'with-fields',
      git_commit_info: git,
      origin_url: 'https://ci.example.test/1',
      user_data: { 'a.b': 1 },
      repo_info: { name: 'app', url: 'https://git.example.test/app', id: 'r-1' },
    };
    const asJson = await server.json('PUT', '/api/v2/trails/acme/json-begin', fields);
    assert.equal(asJson.status, 400);
    assert.deepEqual(asJson.body, {
      errors: { data_json: 'Field required [input: None]' },
      message: 'Input payload validation failed',
    });
    assert.equal(
      (await server.get('/api/v2/trails/acme/json-begin/with-fields')).status,
      404,
      'a refused request stores nothing',
    );
    const reply = await server.multipart('PUT', '/api/v2/trails/acme/json-begin', {
      data_json: JSON.stringify(fields),
    });
    assert.equal(reply.status, 201);
    const trail = (await server.get<Trail>('/api/v2/trails/acme/json-begin/with-fields')).body;
    assert.deepEqual(trail.git_commit_info, git);
    assert.equal(trail.origin_url, 'https://ci.example.test/1');
    assert.deepEqual(trail.user_data, { 'a.b': 1 });
    assert.deepEqual(trail.repo_ids, ['r-1']);
    assert.equal(trail.html_url, `${PUBLIC}/acme/flows/json-begin/trails/with-fields`);
    assert.deepEqual(trail.flow, { name: 'json-begin', tags: {} });
    assert.equal(trail.created_by, 'admin');
  });

  it('answers 400 with the pydantic template text for a bad template_file, and 404 for an unknown flow', async () => {
    await createFlow(server, 'acme', 'bad-template');
    const reply = await server.multipart<ErrorBody>('PUT', '/api/v2/trails/acme/bad-template', {
      data_json: JSON.stringify({ name: 't' }),
      template_file: 'version: 1\ntrail:\n  attestations:\n    - name: x\n      type: not-supported\n  extra: 1\n',
    });
    assert.equal(reply.status, 400);
    assert.match(reply.body.message, /^\d+ validation errors? for Template\n/);
    assert.equal((await server.get('/api/v2/trails/acme/bad-template/t')).status, 404);
    const unknown = await server.multipart('PUT', '/api/v2/trails/acme/no-such-flow', {
      data_json: JSON.stringify({ name: 't' }),
    });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Flow named 'no-such-flow' does not exist for organization 'acme'" });
    const noName = await server.multipart('PUT', '/api/v2/trails/acme/bad-template', {
      data_json: JSON.stringify({ description: 'x' }),
    });
    assert.deepEqual(noName.body, {
      errors: { name: 'Field required [input: None]' },
      message: 'Input payload validation failed',
    });
  });

  it('reads the worked case: INCOMPLETE, bar MISSING, cli MISSING with foo MISSING, one trail_reported event', async () => {
    await beginTrail(server, 'acme-shared', 'worked', 'nothing-reported');
    const trail = (await server.get<Trail>('/api/v2/trails/acme-shared/worked/nothing-reported')).body;
    assert.equal(trail.compliance_state, 'INCOMPLETE');
    assert.equal(trail.is_compliant, false);
    assert.equal(trail.compliance_status.status, 'INCOMPLETE');
    const [bar] = trail.compliance_status.attestations_statuses;
    assert.equal(bar.attestation_name, 'bar');
    assert.equal(bar.status, 'MISSING');
    const cli = trail.compliance_status.artifacts_statuses.cli;
    assert.equal(cli.status, 'MISSING');
    assert.deepEqual(
      cli.attestations_statuses?.map((status: { attestation_name: string; status: string }) => [
        status.attestation_name,
        status.status,
      ]),
      [['foo', 'MISSING']],
    );
    assert.equal(trail.events.length, 1);
    assert.equal(trail.events[0].type, 'trail_reported');
    assert.equal(typeof trail.events[0].timestamp, 'number');
    assert.equal(trail.compliance_status.evaluated_at, trail.last_modified_at);
    assert.equal(trail.template.content, WORKED_TEMPLATE);
    assert.equal(trail.template.version, 1);
    for (const field of [
      'name',
      'last_modified_at',
      'created_at',
      'compliance_status',
      'template',
      'compliance_state',
      'is_compliant',
      'created_by',
      'flow',
      'html_url',
      'description',
      'origin_url',
      'user_data',
      'repo_ids',
      'events',
      'external_urls',
    ]) {
      assert.ok(field in trail, field);
    }
  });

  it('keeps the template a trail began with when the flow template changes, and uses its own template_file', async () => {
    await createFlow(server, 'acme', 'versions', WORKED_TEMPLATE);
    await beginTrail(server, 'acme', 'versions', 'old');
    await createFlow(server, 'acme', 'versions', 'version: 1\n');
    await beginTrail(server, 'acme', 'versions', 'new');
    const old = (await server.get<Trail>('/api/v2/trails/acme/versions/old')).body;
    const fresh = (await server.get<Trail>('/api/v2/trails/acme/versions/new')).body;
    assert.equal(old.compliance_state, 'INCOMPLETE');
    assert.equal(fresh.compliance_state, 'COMPLIANT');
    assert.notEqual(old.compliance_status.flow_template_id, fresh.compliance_status.flow_template_id);
    const own = await server.multipart('PUT', '/api/v2/trails/acme/versions', {
      data_json: JSON.stringify({ name: 'own' }),
      template_file: { filename: 'own.yml', content: WORKED_TEMPLATE },
    });
    assert.equal(own.status, 201);
    assert.equal((await server.get<Trail>('/api/v2/trails/acme/versions/own')).body.compliance_state, 'INCOMPLETE');
  });

  it('lists reflect every write at once: attestations, artifacts, tags, new trails, events from environment reports', async () => {
    await createFlow(server, 'acme', 'fresh', WORKED_TEMPLATE);
    await beginTrail(server, 'acme', 'fresh', 'one');
    const page = async () => (await server.get<Page<Trail>>('/api/v2/trails/acme/fresh?page=1&per_page=20')).body;
    const single = async () => (await server.get<Trail>('/api/v2/trails/acme/fresh/one')).body;
    assert.equal((await page()).data[0].compliance_state, 'INCOMPLETE');
    await attest(server, 'acme', 'fresh', 'one', 'generic', { attestation_name: 'bar', is_compliant: false });
    assert.equal((await page()).data[0].compliance_state, 'NON-COMPLIANT');
    assert.equal((await single()).compliance_state, 'NON-COMPLIANT');
    const fp = fingerprint('fresh');
    await attestArtifact(server, 'acme', 'fresh', {
      fingerprint: fp,
      filename: 'app',
      git_commit: commit('fresh'),
      trail_name: 'one',
      template_reference_name: 'cli',
    });
    assert.equal((await page()).data[0].compliance_status.artifacts_statuses.cli.artifact_fingerprint, fp);
    await server.json('PATCH', '/api/v2/tags/acme/flow/fresh', { set_tags: { stage: 'prod' } });
    assert.deepEqual((await page()).data[0].flow.tags, { stage: 'prod' });
    await beginTrail(server, 'acme', 'fresh', 'two');
    assert.equal((await page()).pagination.total, 2);
    assert.equal(
      (await server.json('PUT', '/api/v2/environments/acme', { name: 'prod-cluster', type: 'K8S', description: 'x' }))
        .status < 300,
      true,
    );
    const report = {
      artifacts: [
        {
          creationTimestamp: 1700000000,
          digests: { 'registry.example/app:1': fp },
          namespace: 'prod',
          podName: 'app-1',
        },
      ],
    };
    assert.equal((await server.json('PUT', '/api/v2/environments/acme/prod-cluster/report/K8S', report)).status, 200);
    const trail = (await page()).data.find((entry: { name: string }) => entry.name === 'one');
    const started = trail?.events.find((event: { type: string }) => event.type === 'artifact_started_running');
    assert.equal(started?.environment_name, 'prod-cluster');
    const artifact = (await server.get<Artifact>(`/api/v2/artifacts/acme/fresh/fingerprint/${fp}`)).body;
    assert.deepEqual(artifact.running, [{ environment_name: 'prod-cluster', snapshot_index: 1 }]);
    assert.ok(
      artifact.history?.some(
        (entry: { event: string }) => entry.event === 'Started running in prod-cluster#1 environment',
      ),
    );
    const found = (await server.get<SearchResult>(`/api/v2/search/acme/sha/${fp}`)).body.artifacts[0];
    assert.deepEqual(found.running_in, ['prod-cluster']);
  });

  it('answers 404 with the exact message for an unknown trail', async () => {
    const reply = await server.get('/api/v2/trails/acme/many/non-existing');
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, {
      message: "Trail with name 'non-existing' does not exist for Organization 'acme' and Flow 'many'",
    });
  });

  it('pages a flow’s trails newest first with exact arithmetic', async () => {
    const first = (await server.get<Page<Trail>>('/api/v2/trails/acme/many?page=1&per_page=20')).body;
    assert.deepEqual(first.pagination, { total: 45, page: 1, per_page: 20, page_count: 3 });
    assert.equal(first.data.length, 20);
    assert.equal(first.data[0].name, 'trail-44');
    const last = (await server.get<Page<Trail>>('/api/v2/trails/acme/many?page=3&per_page=20')).body;
    assert.equal(last.data.length, 5);
    assert.equal(last.data[4].name, 'trail-00');
    const beyond = (await server.get<Page<Trail>>('/api/v2/trails/acme/many?page=4&per_page=20')).body;
    assert.deepEqual(beyond, { data: [], pagination: { total: 45, page: 4, per_page: 20, page_count: 3 } });
    const exact = (await server.get<Page<Trail>>('/api/v2/trails/acme/many?page=1&per_page=45')).body.pagination;
    assert.deepEqual(exact, { total: 45, page: 1, per_page: 45, page_count: 1 });
    const whole = (await server.get<Page<Trail>>('/api/v2/trails/acme/many?per_page=100')).body;
    assert.equal(whole.data.length, 45);
    const seen = new Set<string>();
    for (let page = 1; page <= 5; page++) {
      for (const trail of (await server.get<Page<Trail>>(`/api/v2/trails/acme/many?page=${page}&per_page=10`)).body
        .data)
        seen.add(trail.name);
    }
    assert.equal(seen.size, 45);
    const bare = (await server.get<Trail[]>('/api/v2/trails/acme/many')).body;
    assert.ok(Array.isArray(bare));
    assert.equal(bare.length, 45);
  });

  for (const [query, key, message] of [
    ['page=0&per_page=20', 'query.page', 'Input should be greater than or equal to 1 [input: 0]'],
    ['page=-1&per_page=20', 'query.page', 'Input should be greater than or equal to 1 [input: -1]'],
    ['page=1&per_page=0', 'query.per_page', 'Input should be greater than or equal to 1 [input: 0]'],
    ['page=1&per_page=101', 'query.per_page', 'Input should be less than or equal to 100 [input: 101]'],
    [
      'page=abc&per_page=20',
      'query.page',
      'Input should be a valid integer, unable to parse string as an integer [input: abc]',
    ],
    [
      'page=1&per_page=',
      'query.per_page',
      'Input should be a valid integer, unable to parse string as an integer [input: ]',
    ],
    [
      'page=1.5&per_page=20',
      'query.page',
      'Input should be a valid integer, unable to parse string as an integer [input: 1.5]',
    ],
  ] as const) {
    it(`validates ${query} → 400 ${key}`, async () => {
      const reply = await server.get(`/api/v2/trails/acme/many?${query}`);
      assert.equal(reply.status, 400);
      assert.deepEqual(reply.body, { errors: { [key]: message }, message: 'Input payload validation failed' });
    });
  }

  it('lists an org without trails as the exact empty page, and 404s a filter on an unknown flow', async () => {
    const empty = await server.get('/api/v2/trails/empty?page=1&per_page=20');
    assert.equal(empty.status, 200);
    assert.equal(empty.text, '{"data":[],"pagination":{"total":0,"page":1,"per_page":20,"page_count":0}}');
    const unknown = await server.get('/api/v2/trails/acme?flow=nope&page=1&per_page=20');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Flow named 'nope' does not exist for organization 'acme'" });
  });

  it('filters org trails by fingerprint and by flow_tag', async () => {
    await createFlow(server, 'acme', 'with-artifact');
    await beginTrail(server, 'acme', 'with-artifact', 'a');
    await beginTrail(server, 'acme', 'with-artifact', 'b');
    const fp = fingerprint('trail-filter');
    await attestArtifact(server, 'acme', 'with-artifact', {
      fingerprint: fp,
      filename: 'app',
      git_commit: commit('x'),
      trail_name: 'b',
      template_reference_name: 'app',
    });
    const byFingerprint = (await server.get<Page<Trail>>(`/api/v2/trails/acme?fingerprint=${fp}&page=1&per_page=20`))
      .body;
    assert.deepEqual(
      byFingerprint.data.map((trail: { name: string }) => trail.name),
      ['b'],
    );
    assert.equal(byFingerprint.pagination.total, 1);
    await server.json('PATCH', '/api/v2/tags/acme/flow/with-artifact', { set_tags: { team: 'blue' } });
    const byTag = (await server.get<Page<Trail>>('/api/v2/trails/acme?flow_tag=team=blue&page=1&per_page=20')).body;
    assert.deepEqual(byTag.data.map((trail: { name: string }) => trail.name).sort(), ['a', 'b']);
    assert.equal(
      (await server.get<Page<Trail>>('/api/v2/trails/acme?flow_tag=team=red&page=1&per_page=20')).body.pagination.total,
      0,
    );
    const withinFlow = (await server.get<Page<Trail>>('/api/v2/trails/acme?flow=many&page=2&per_page=40')).body;
    assert.deepEqual(withinFlow.pagination, { total: 45, page: 2, per_page: 40, page_count: 2 });
  });
});
