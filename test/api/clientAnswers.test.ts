// Answers real clients parse (reference §8.2, items 5 to 11): each test sends the request as a
// client sends it and checks the exact answer (status, message, shape).
import assert from 'node:assert/strict';
import type { Artifact, CustomType, ErrorBody, Flow } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, commit, createEnvironment, createFlow, fingerprint } from './fixtures.ts';

const POLICY = '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1\n';

describe('answers clients parse (reference §8.2)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'flow');
  });
  after(async () => {
    await server?.stop();
  });

  const createType = (data: Record<string, unknown>, schema?: unknown) =>
    server.multipart<CustomType>('POST', '/api/v2/custom-attestation-types/acme', {
      data_json: JSON.stringify(data),
      ...(schema === undefined ? {} : { type_schema: { filename: 'schema.json', content: JSON.stringify(schema) } }),
    });

  it('8.2.5: a custom type carries versions, oldest first, each with version, type_schema, jq_rules, summary, created_at and created_by', async () => {
    const first = await createType({ name: 'person' }, { type: 'object', properties: { age: { type: 'integer' } } });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.versions.length, 1);
    const second = await createType({
      name: 'person',
      evaluator: { content_type: 'jq', rules: ['.age > 21'] },
      summary: [{ name: 'age', expression: '.age' }],
    });
    assert.equal(second.status, 201, second.text);

    const read = await server.get<CustomType>('/api/v2/custom-attestation-types/acme/person');
    assert.equal(read.status, 200);
    const { versions } = read.body;
    assert.equal(versions.length, 2, 'clients take len(versions) as the latest version');
    assert.equal(read.body.version, versions.length);
    const shapes = versions.map(({ created_at, created_by, ...rest }) => {
      assert.equal(typeof created_at, 'number');
      assert.equal(created_by, 'admin');
      return rest;
    });
    assert.deepEqual(shapes, [
      {
        version: 1,
        type_schema: { type: 'object', properties: { age: { type: 'integer' } } },
        jq_rules: [],
        summary: [],
      },
      {
        version: 2,
        type_schema: { type: 'object' },
        jq_rules: ['.age > 21'],
        summary: [{ name: 'age', expression: '.age' }],
      },
    ]);
    assert.ok(versions[0].created_at <= versions[1].created_at);
    assert.deepEqual(second.body.versions, versions, 'the create answer carries them too');
    const listed = (await server.get<CustomType[]>('/api/v2/custom-attestation-types/acme')).body;
    assert.deepEqual(listed.find((type) => type.name === 'person')?.versions, versions);
    const byNumber = await server.get<CustomType>('/api/v2/custom-attestation-types/acme/person?version=1');
    assert.equal(byNumber.body.version, 1);
    assert.deepEqual(byNumber.body.versions, versions);
  });

  it('8.2.6: an archived custom type is still read by name (archived: true); the list leaves it out unless asked for archived ones', async () => {
    assert.equal((await createType({ name: 'retired', description: 'old' })).status, 201);
    const archived = await server.json('PUT', '/api/v2/custom-attestation-types/acme/retired/archive', null);
    assert.equal(archived.status, 200, archived.text);
    const read = await server.get<CustomType>('/api/v2/custom-attestation-types/acme/retired');
    assert.equal(read.status, 200, read.text);
    assert.deepEqual([read.body.name, read.body.archived, read.body.versions.length], ['retired', true, 1]);
    assert.equal((await server.get<CustomType>('/api/v2/custom-attestation-types/acme/retired?version=1')).status, 200);
    const names = async (query: string) =>
      (await server.get<CustomType[]>(`/api/v2/custom-attestation-types/acme${query}`)).body.map((type) => [
        type.name,
        type.archived,
      ]);
    assert.ok(!(await names('')).some(([name]) => name === 'retired'));
    assert.deepEqual(
      (await names('?archived=true')).find(([name]) => name === 'retired'),
      ['retired', true],
    );
    assert.ok((await names('?archived=true')).some(([name, isArchived]) => name === 'person' && isArchived === false));
    // Attestations cannot name it, and a new version makes it live again.
    await beginTrail(server, 'acme', 'flow', 'retired-trail');
    const refused = await attest(server, 'acme', 'flow', 'retired-trail', 'custom', {
      attestation_name: 'r',
      type_name: 'retired',
      attestation_data: {},
    });
    assert.equal(refused.status, 404);
    assert.deepEqual(refused.body, { message: "Custom attestation type 'retired' does not exist for org 'acme'" });
    assert.equal((await createType({ name: 'retired' })).status, 201);
    const revived = (await server.get<CustomType>('/api/v2/custom-attestation-types/acme/retired')).body;
    assert.deepEqual([revived.archived, revived.versions.length], [false, 2]);
  });

  it("8.2.7: an artifact's first history entry reads '<template name> reported' with the report's time", async () => {
    await beginTrail(server, 'acme', 'flow', 'history');
    const fp = fingerprint('history');
    await attestArtifact(server, 'acme', 'flow', {
      fingerprint: fp,
      filename: 'app.tar',
      git_commit: commit('history'),
      trail_name: 'history',
      template_reference_name: 'cli',
    });
    const artifact = (await server.get<Artifact>(`/api/v2/artifacts/acme/flow/fingerprint/${fp}`)).body;
    assert.equal(artifact.history?.[0]?.event, 'cli reported');
    assert.equal(artifact.history[0].timestamp, Number(artifact.created_at));
    // The legacy form (no trail, no template name) reports under the slot `artifact`.
    const legacy = fingerprint('legacy-history');
    await attestArtifact(server, 'acme', 'flow', { fingerprint: legacy, filename: 'x', git_commit: commit('x') });
    const reported = (await server.get<Artifact>(`/api/v2/artifacts/acme/flow/fingerprint/${legacy}`)).body;
    assert.equal(reported.history?.[0]?.event, 'artifact reported');
  });

  it('8.2.8: not-found wordings of controls (get, update, archive, unarchive), policies and artifacts', async () => {
    const control = "Control 'nope' does not exist in organization 'acme'";
    for (const [method, path, body] of [
      ['GET', '/api/v2/controls/acme/nope', undefined],
      ['PUT', '/api/v2/controls/acme/nope', { name: 'x' }],
      ['POST', '/api/v2/controls/acme/nope/archive', null],
      ['POST', '/api/v2/controls/acme/nope/unarchive', null],
    ] as const) {
      const reply = await server.json(method, path, body);
      assert.equal(reply.status, 404, `${method} ${path}`);
      assert.deepEqual(reply.body, { message: control }, `${method} ${path}`);
    }

    const policy = "Policy 'nope' does not exist in organization 'acme'";
    await createEnvironment(server, 'acme', 'prod');
    const created = await server.multipart('PUT', '/api/v2/policies/acme', {
      payload: JSON.stringify({ name: 'known' }),
      policy_file: { filename: 'policy.yml', content: POLICY },
    });
    assert.equal(created.status, 201, created.text);
    for (const [method, path, body] of [
      ['GET', '/api/v2/policies/acme/nope', undefined],
      ['PUT', '/api/v2/policies/acme/nope/archive', null],
      ['PUT', '/api/v2/policies/acme/nope/unarchive', null],
      ['POST', '/api/v2/environments/acme/prod/policies', { policy_names: ['known', 'nope'] }],
      [
        'GET',
        `/api/v2/asserts/acme/fingerprint/${fingerprint('history')}?policy_name=known&policy_name=nope`,
        undefined,
      ],
    ] as const) {
      const reply = await server.json(method, path, body);
      assert.equal(reply.status, 404, `${method} ${path}: ${reply.text}`);
      assert.deepEqual(reply.body, { message: policy }, `${method} ${path}`);
    }

    const missing = fingerprint('never reported');
    const artifact = await server.get(`/api/v2/artifacts/acme/flow/fingerprint/${missing}`);
    assert.equal(artifact.status, 404);
    assert.deepEqual(artifact.body, {
      message: `Artifact with fingerprint '${missing}' does not exist in flow 'flow' belonging to organization 'acme'`,
    });
  });

  it('8.2.9: the flow name search matches case exactly unless case_sensitive=false', async () => {
    await createFlow(server, 'acme', 'MyService');
    const names = async (query: string) =>
      (await server.get<Flow[]>(`/api/v2/flows/acme?${query}`)).body.map((flow) => flow.name);
    assert.deepEqual(await names('search_by_name=myservice'), []);
    assert.deepEqual(await names('search_by_name=Service'), ['MyService']);
    assert.deepEqual(await names('search_by_name=myservice&case_sensitive=true'), []);
    assert.deepEqual(await names('search_by_name=myservice&case_sensitive=false'), ['MyService']);
  });

  it('8.2.10: a template type that is neither built in nor custom:<name> is one error per failed alternative', async () => {
    const begin = (template: string) =>
      server.multipart<ErrorBody>('PUT', '/api/v2/trails/acme/flow', {
        data_json: JSON.stringify({ name: 'own-template' }),
        template_file: { filename: 'template.yml', content: template },
      });
    const builtIn = "literal['generic','junit','snyk','scan','jira','pull_request','decision','*']";
    const choices = "'generic', 'junit', 'snyk', 'scan', 'jira', 'pull_request', 'decision' or '*'";
    const one = await begin('version: 1\ntrail:\n  attestations:\n    - name: x\n      type: nonsense\n');
    assert.equal(one.status, 400);
    assert.deepEqual(one.body, {
      message: [
        '2 validation errors for Template',
        `trail.attestations.0.type.${builtIn}`,
        `  Input should be ${choices} [input: nonsense]`,
        'trail.attestations.0.type.constrained-str',
        "  String should match pattern '^custom:.+$' [input: nonsense]",
      ].join('\n'),
    });
    const more = await begin(
      [
        'version: 1',
        'trail:',
        '  attestations:',
        '    - name: ""',
        '      type: generic',
        '  artifacts:',
        '    - name: app',
        '      attestations:',
        '        - name: tests',
        '          type: junt',
      ].join('\n'),
    );
    assert.equal(more.status, 400);
    const lines = more.body.message.split('\n');
    assert.equal(lines[0], '3 validation errors for Template');
    assert.deepEqual(
      lines.filter((line) => !line.startsWith('  ')),
      [
        '3 validation errors for Template',
        'trail.attestations.0.name',
        `trail.artifacts.0.attestations.0.type.${builtIn}`,
        'trail.artifacts.0.attestations.0.type.constrained-str',
      ],
    );
    assert.equal(lines[4], `  Input should be ${choices}. Did you mean 'junit'? [input: junt]`);
    assert.equal((await server.get('/api/v2/trails/acme/flow/own-template')).status, 404, 'nothing begun');
  });
});

describe('answers clients parse, behind a public URL (reference §8.2 item 11)', () => {
  const PUBLIC = 'http://localhost:8001';
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme', '--public-url', PUBLIC] });
  });
  after(async () => {
    await server?.stop();
  });

  /** Every html_url, api_url and link href anywhere in a JSON answer. */
  function urlsIn(value: unknown, found: string[] = []): string[] {
    if (Array.isArray(value)) for (const item of value) urlsIn(item, found);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (['html_url', 'api_url', 'href'].includes(key) && typeof inner === 'string') found.push(inner);
        else urlsIn(inner, found);
      }
    }
    return found;
  }

  it('8.2.11: every html_url and api_url, and every link, starts with the public URL the server was started with', async () => {
    await createFlow(server, 'acme', 'flow', 'version: 1\ntrail:\n  artifacts:\n    - name: app\n');
    await beginTrail(server, 'acme', 'flow', 'trail');
    await attest(server, 'acme', 'flow', 'trail', 'generic', { attestation_name: 'check' });
    const fp = fingerprint('public');
    await attestArtifact(server, 'acme', 'flow', {
      fingerprint: fp,
      filename: 'app',
      git_commit: commit('public'),
      trail_name: 'trail',
      template_reference_name: 'app',
    });
    await createEnvironment(server, 'acme', 'prod');
    const report = await server.json('PUT', '/api/v2/environments/acme/prod/report/K8S', {
      artifacts: [
        { podName: 'app-1', namespace: 'prod', creationTimestamp: 1_700_000_000, digests: { 'reg/app:1': fp } },
      ],
    });
    assert.equal(report.status, 200, report.text);
    const paths = [
      '/api/v2/flows/acme',
      '/api/v2/flows/acme?page=1&per_page=5',
      '/api/v2/flows/acme/flow',
      '/api/v2/trails/acme/flow?page=1&per_page=5',
      '/api/v2/trails/acme/flow/trail',
      '/api/v2/attestations/acme',
      '/api/v2/attestations/acme/flow?page=1&per_page=5',
      '/api/v2/attestations/acme/flow/trail/trail/check',
      `/api/v2/artifacts/acme/flow/fingerprint/${fp}`,
      `/api/v2/artifacts/acme/flow/commit_sha/${commit('public')}`,
      '/api/v2/artifacts/acme',
      `/api/v2/search/acme/sha/${fp}`,
      `/api/v2/asserts/acme/fingerprint/${fp}`,
      '/api/v2/environments/acme/prod',
      '/api/v2/environments/acme?page=1&per_page=5',
      '/api/v2/snapshots/acme/prod/1',
      '/api/v2/repos/acme',
      '/api/v2/controls/acme',
    ];
    let counted = 0;
    for (const path of paths) {
      const reply = await server.get(path);
      assert.equal(reply.status, 200, `${path}: ${reply.text}`);
      const urls = urlsIn(reply.body);
      assert.ok(urls.length > 0, `${path} answers no URL to check`);
      for (const url of urls) assert.ok(url.startsWith(`${PUBLIC}/`), `${path}: ${url}`);
      counted += urls.length;
    }
    assert.ok(counted >= paths.length);
    const flow = (await server.get<Flow>('/api/v2/flows/acme/flow')).body;
    assert.equal(flow.html_url, `${PUBLIC}/acme/flows/flow`);
  });
});
