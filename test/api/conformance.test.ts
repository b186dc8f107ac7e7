// The checklist of reference §6: every request → response behaviour the official CLI's tests check
// against a real server, one `it` per item, with the exact statuses and messages of §1.2 (the spec
// wins where the reference says so) and the fields clients hard-require (§1.11).
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { repo } from '../../shared/contract/accounts.ts';
import type { environment } from '../../shared/contract/environments.ts';
import type { control } from '../../shared/contract/governance.ts';
import type { namedPage } from '../../shared/contract/pagination.ts';
import type {
  AllowlistEntry,
  Artifact,
  AssertResult,
  Attestation,
  Control,
  Environment,
  EnvironmentEvent,
  ErrorBody,
  Flow,
  Page,
  Policy,
  Repo,
  SearchResult,
  Snapshot,
  SnapshotSummary,
  Trail,
} from './answers.ts';
import { startServer, type Reply, type TestServer } from './harness.ts';
import {
  WORKED_TEMPLATE,
  attest,
  attestArtifact,
  beginTrail,
  commit,
  createFlow,
  fingerprint,
  scanResults,
} from './fixtures.ts';

const FLOW_PATTERN = '^[a-zA-Z0-9][a-zA-Z0-9\\.\\-_~]*$';
const ENV_PATTERN = '^[a-zA-Z0-9][a-zA-Z0-9\\.\\-_]*$';
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}$/;
const POLICY_SCHEMA = '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1';
const PROVENANCE_AND_TRAIL = `${POLICY_SCHEMA}\nartifacts:\n  provenance:\n    required: true\n  trail-compliance:\n    required: true\n`;
const ART_TEMPLATE = ['version: 1', 'trail:', '  artifacts:', '    - name: art', ''].join('\n');
/** The `{<name>: [item], page, per_page, total_pages, total_count, _links}` lists. */
type EnvironmentPage = FromSchema<ReturnType<typeof namedPage<'environments', typeof environment>>>;
type ControlPage = FromSchema<ReturnType<typeof namedPage<'controls', typeof control>>>;
type RepoPage = FromSchema<ReturnType<typeof namedPage<'repos', typeof repo>>>;

const flowMissing = (flow: string, org = 'acme') => ({
  message: `Flow named '${flow}' does not exist for organization '${org}'`,
});
const envMissing = (env: string) => ({ message: `Environment named '${env}' does not exist for organization 'acme'` });
const snapshotRange = (expr: string, resolved: string, count: number) => ({
  message: `Org: 'acme'. Snapshot '${expr}' resolves to '${resolved}'. len(snapshots) == ${count}. Indexes are 1-based`,
});

function created(reply: Reply<unknown>, what: string): void {
  assert.ok(reply.status === 200 || reply.status === 201, `${what}: ${reply.status} ${reply.text}`);
}

describe('conformance with the hosted service (reference §6)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme', '--org', 'acme-shared', '--org', 'acme-empty'] });
  });
  after(async () => {
    await server?.stop();
  });

  const putEnv = <T = string>(name: string, type: string, extra: Record<string, unknown> = {}) =>
    server.json<T>('PUT', '/api/v2/environments/acme', { name, type, description: name, ...extra });
  const report = (env: string, files: Record<string, string>, type = 'server') =>
    server.json('PUT', `/api/v2/environments/acme/${env}/report/${type}`, {
      artifacts: [{ digests: files, creationTimestamp: 1700000000 }],
    });
  const snapshot = <T = Snapshot>(env: string, expr: string) =>
    server.get<T>(`/api/v2/snapshots/acme/${env}/${encodeURIComponent(expr)}`);
  const trailOf = async (flow: string, trail: string) =>
    (await server.get<Trail>(`/api/v2/trails/acme/${flow}/${trail}`)).body;

  // Flows

  it('1: create a flow with a template: 201, the same request again: 200', async () => {
    const first = await createFlow(server, 'acme', 'flow-one', WORKED_TEMPLATE);
    assert.equal(first.status, 201);
    assert.equal((await createFlow(server, 'acme', 'flow-one', WORKED_TEMPLATE)).status, 200);
  });

  it('2: create a flow with the empty template (version: 1): 201', async () => {
    assert.equal((await createFlow(server, 'acme', 'empty-template')).status, 201);
  });

  it('3: a description with brackets and special characters is stored unchanged', async () => {
    const description = 'with [brackets] {braces} (parens) <angles> & "quotes" \'single\' ~!@#$%^*|\\ ünïcödé';
    assert.equal((await createFlow(server, 'acme', 'special-description', 'version: 1\n', description)).status, 201);
    assert.equal((await server.get<Flow>('/api/v2/flows/acme/special-description')).body.description, description);
  });

  it('4: a template with an attestation of type not-supported: 400 with errors', async () => {
    const template = [
      'version: 1',
      'trail:',
      '  attestations:',
      '    - name: bad',
      '      type: not-supported',
      '',
    ].join('\n');
    const reply = await server.multipart<ErrorBody>('PUT', '/api/v2/flows/acme/template_file', {
      data_json: JSON.stringify({ name: 'unsupported-type', description: '' }),
      template_file: { filename: 'template.yml', content: template },
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.message, 'Input payload validation failed');
    assert.equal(typeof reply.body.errors, 'object');
    assert.ok(Object.keys(reply.body.errors ?? {}).length > 0);
  });

  it('5: rename a flow: 200; to an illegal name: 400 with the new_name pattern error', async () => {
    await createFlow(server, 'acme', 'rename-flow');
    assert.equal(
      (await server.json('PUT', '/api/v2/flows/acme/rename-flow/rename', { new_name: 'new-name-456' })).status,
      200,
    );
    assert.equal((await server.get('/api/v2/flows/acme/new-name-456')).status, 200);
    const illegal = await server.json('PUT', '/api/v2/flows/acme/new-name-456/rename', {
      new_name: 'new illegal name',
    });
    assert.equal(illegal.status, 400);
    assert.deepEqual(illegal.body, {
      message: 'Input payload validation failed',
      errors: { new_name: `String should match pattern '${FLOW_PATTERN}' [input: new illegal name]` },
    });
  });

  it('6: archive a flow: 200 and gone from lists; archive non-existing: 404', async () => {
    await createFlow(server, 'acme', 'to-archive');
    assert.equal((await server.json('PUT', '/api/v2/flows/acme/to-archive/archive', null)).status, 200);
    const names = (await server.get<Flow[]>('/api/v2/flows/acme')).body.map((flow) => flow.name);
    assert.ok(!names.includes('to-archive'));
    const missing = await server.json('PUT', '/api/v2/flows/acme/non-existing/archive', null);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, flowMissing('non-existing'));
  });

  it('7: get an unknown flow: 404; an existing flow: the flow object', async () => {
    const missing = await server.get('/api/v2/flows/acme/non-existing');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, flowMissing('non-existing'));
    const flow = await server.get<Flow>('/api/v2/flows/acme/flow-one');
    assert.equal(flow.status, 200);
    assert.equal(flow.body.name, 'flow-one');
    assert.match(flow.body.id, ID_PATTERN);
    assert.match(flow.body.html_url, /\/acme\/flows\/flow-one$/);
  });

  it('8: flow lists: array, [] for an empty org, the envelope past the end, empty search is 400', async () => {
    assert.ok(Array.isArray((await server.get('/api/v2/flows/acme')).body));
    const empty = await server.get('/api/v2/flows/acme-empty');
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, []);
    const beyond = await server.get<Page<Flow>>('/api/v2/flows/acme?page=99&per_page=20');
    assert.equal(beyond.status, 200);
    assert.deepEqual(beyond.body.data, []);
    assert.deepEqual(Object.keys(beyond.body.pagination).sort(), ['page', 'page_count', 'per_page', 'total']);
    const search = await server.get<ErrorBody>('/api/v2/flows/acme?search_by_name=');
    assert.equal(search.status, 400);
    assert.equal(search.body.message, 'Empty string is not allowed for flow names.');
  });

  // Trails

  it('9: begin trail test-123: 201, again: 200', async () => {
    await createFlow(server, 'acme', 'flow', WORKED_TEMPLATE);
    assert.equal((await beginTrail(server, 'acme', 'flow', 'test-123')).status, 201);
    assert.equal((await beginTrail(server, 'acme', 'flow', 'test-123')).status, 200);
  });

  it('10: begin a trail with an invalid template file: 400 "<N> validation errors for Template\\n…"', async () => {
    const reply = await server.multipart<ErrorBody>('PUT', '/api/v2/trails/acme/flow', {
      data_json: JSON.stringify({ name: 'bad-template' }),
      template_file: {
        filename: 'template.yml',
        content: 'version: 1\ntrail:\n  attestations:\n    - type: generic\n',
      },
    });
    assert.equal(reply.status, 400);
    assert.match(reply.body.message, /^\d+ validation errors? for Template\n/);
  });

  it('11: begin a trail in an unknown flow: 404 flow-not-found', async () => {
    const reply = await server.multipart('PUT', '/api/v2/trails/acme/no-such-flow', {
      data_json: JSON.stringify({ name: 't' }),
    });
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, flowMissing('no-such-flow'));
  });

  it('12: acme-shared worked case: INCOMPLETE, bar MISSING, cli MISSING with foo MISSING, one trail_reported event', async () => {
    await createFlow(server, 'acme-shared', 'worked', WORKED_TEMPLATE);
    await beginTrail(server, 'acme-shared', 'worked', 'nothing-reported');
    const trail = (await server.get<Trail>('/api/v2/trails/acme-shared/worked/nothing-reported')).body;
    assert.equal(trail.compliance_state, 'INCOMPLETE');
    assert.deepEqual(
      trail.compliance_status.attestations_statuses.map((s) => [s.attestation_name, s.status]),
      [['bar', 'MISSING']],
    );
    const cli = trail.compliance_status.artifacts_statuses.cli;
    assert.equal(cli.status, 'MISSING');
    assert.deepEqual(
      cli.attestations_statuses?.map((s) => [s.attestation_name, s.status]),
      [['foo', 'MISSING']],
    );
    assert.deepEqual(
      trail.events.map((e) => [e.type, typeof e.timestamp]),
      [['trail_reported', 'number']],
    );
  });

  it('13: get trail non-existing: 404 with the trail-not-found message', async () => {
    const reply = await server.get('/api/v2/trails/acme/flow/non-existing');
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, {
      message: "Trail with name 'non-existing' does not exist for Organization 'acme' and Flow 'flow'",
    });
  });

  it('14: trail list of an org without trails: the empty envelope; an unknown flow filter: 404', async () => {
    const empty = await server.get('/api/v2/trails/acme-empty?page=1&per_page=20');
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { data: [], pagination: { total: 0, page: 1, per_page: 20, page_count: 0 } });
    const unknown = await server.get('/api/v2/trails/acme/non-existing?page=1&per_page=20');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, flowMissing('non-existing'));
  });

  // Attestations

  it('15: a generic attestation: 201; with is_compliant false: 201 and the trail is NON-COMPLIANT', async () => {
    const ok = await attest(server, 'acme', 'flow', 'test-123', 'generic', {
      attestation_name: 'foo',
      is_compliant: true,
    });
    assert.equal(ok.status, 201);
    assert.equal(ok.body, 'OK');
    assert.equal(
      (await attest(server, 'acme', 'flow', 'test-123', 'generic', { attestation_name: 'foo', is_compliant: false }))
        .status,
      201,
    );
    assert.equal((await trailOf('flow', 'test-123')).compliance_state, 'NON-COMPLIANT');
  });

  it('16: target_artifacts: bound with git_commit_info; without fingerprint or commit: 400', async () => {
    await createFlow(server, 'acme', 'targets', ART_TEMPLATE);
    await beginTrail(server, 'acme', 'targets', 't');
    const sha = commit('targets');
    const bound = await attest(server, 'acme', 'targets', 't', 'generic', {
      attestation_name: 'check',
      target_artifacts: ['art'],
      is_compliant: true,
      git_commit_info: { sha1: sha, author: 'A <a@example.test>', message: 'm', branch: 'main', timestamp: 1700000000 },
    });
    assert.equal(bound.status, 201, bound.text);
    await beginTrail(server, 'acme', 'targets', 'with-commit', {
      git_commit_info: { sha1: sha, author: 'A <a@example.test>', message: 'm', branch: 'main', timestamp: 1700000000 },
    });
    const info = (await trailOf('targets', 'with-commit')).git_commit_info;
    assert.ok(info, 'the trail keeps its git_commit_info');
    assert.deepEqual(
      [typeof info.author, typeof info.message, typeof info.timestamp, (info.sha1?.length ?? 0) >= 7],
      ['string', 'string', 'number', true],
    );
    await attestArtifact(server, 'acme', 'targets', {
      fingerprint: fingerprint('art'),
      filename: 'art',
      trail_name: 't',
      template_reference_name: 'art',
      git_commit: sha,
    });
    const art = (await trailOf('targets', 't')).compliance_status.artifacts_statuses.art;
    assert.ok(
      art.attestations_statuses?.some((s) => s.attestation_name === 'check'),
      JSON.stringify(art),
    );
    const unbound = await attest<ErrorBody>(server, 'acme', 'targets', 't', 'generic', {
      attestation_name: 'check',
      target_artifacts: ['art'],
      is_compliant: true,
    });
    assert.equal(unbound.status, 400);
    assert.ok(
      unbound.body.message.includes('requires at least one of: artifact_fingerprint or git_commit_info.'),
      unbound.body.message,
    );
  });

  it('17: a fingerprint not in the trail: the double-quoted artifact-not-in-trail message', async () => {
    const fp = fingerprint('not-in-trail');
    const reply = await attest<ErrorBody>(server, 'acme', 'flow', 'test-123', 'generic', {
      attestation_name: 'foo',
      artifact_fingerprint: fp,
    });
    assert.ok(reply.status === 400 || reply.status === 404, `${reply.status}`);
    assert.equal(
      reply.body.message,
      `Artifact with fingerprint ${fp} does not exist in trail "test-123" of flow "flow" belonging to organization "acme"`,
    );
  });

  it('18: a junit attestation with junit_results and an attachment: 201', async () => {
    const junit = {
      attestation_name: 'unit',
      junit_results: [{ name: 'suite', tests: 2, failures: 0, errors: 0, skipped: 0, duration: 0.1 }],
    };
    const xml =
      '<testsuite name="suite" tests="2" failures="0" errors="0"><testcase name="a"/><testcase name="b"/></testsuite>';
    const reply = await attest(server, 'acme', 'flow', 'test-123', 'junit', junit, {
      filename: 'junit.xml',
      content: xml,
    });
    assert.equal(reply.status, 201, reply.text);
  });

  it('19: a snyk attestation: 201', async () => {
    const snyk = {
      attestation_name: 'deps',
      snyk_results: { results: [{ high_count: 0, medium_count: 0, low_count: 0 }] },
    };
    const reply = await attest(server, 'acme', 'flow', 'test-123', 'snyk', snyk);
    assert.equal(reply.status, 201, reply.text);
  });

  it('20: a scan attestation with scan_results: 201', async () => {
    const reply = await attest(server, 'acme', 'flow', 'test-123', 'scan', {
      attestation_name: 'quality',
      scan_results: scanResults(),
    });
    assert.equal(reply.status, 201, reply.text);
  });

  it('21: a jira attestation: 201; with empty jira_results: 201 and non-compliant', async () => {
    const issue = {
      issue_id: 'ABC-1',
      issue_exists: true,
      issue_url: 'https://jira.example.test/browse/ABC-1',
      issue_fields: { summary: 's' },
    };
    assert.equal(
      (await attest(server, 'acme', 'flow', 'test-123', 'jira', { attestation_name: 'ticket', jira_results: [issue] }))
        .status,
      201,
    );
    const empty = await attest(server, 'acme', 'flow', 'test-123', 'jira', {
      attestation_name: 'no-ticket',
      jira_results: [],
    });
    assert.equal(empty.status, 201, empty.text);
    const [latest] = (await server.get<Attestation[]>('/api/v2/attestations/acme/flow/trail/test-123/no-ticket')).body;
    assert.equal(latest.is_compliant, false);
  });

  it('22: a pull_request attestation for github, gitlab, bitbucket and azure: 201, empty list non-compliant', async () => {
    const pr = {
      url: 'https://git.example.test/pr/1',
      state: 'merged',
      approvers: ['x'],
      author: 'y',
      merge_commit: commit('merge'),
      commits: [],
    };
    for (const provider of ['github', 'gitlab', 'bitbucket', 'azure']) {
      const name = `pr-${provider}`;
      const some = await attest(server, 'acme', 'flow', 'test-123', 'pull_request', {
        attestation_name: name,
        git_provider: provider,
        pull_requests: [pr],
      });
      assert.equal(some.status, 201, `${provider}: ${some.text}`);
      const none = await attest(server, 'acme', 'flow', 'test-123', 'pull_request', {
        attestation_name: `${name}-none`,
        git_provider: provider,
        pull_requests: [],
      });
      assert.equal(none.status, 201, `${provider} empty: ${none.text}`);
      assert.equal(
        (await server.get<Attestation[]>(`/api/v2/attestations/acme/flow/trail/test-123/${name}-none`)).body[0]
          .is_compliant,
        false,
      );
    }
  });

  it('23: custom attestations of type person in every form; a fingerprint not in the trail is rejected', async () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer' } },
      required: ['name'],
    };
    created(
      await server.multipart('POST', '/api/v2/custom-attestation-types/acme', {
        data_json: JSON.stringify({ name: 'person', description: 'a person' }),
        type_schema: { filename: 'schema.json', content: JSON.stringify(schema) },
      }),
      'custom type person',
    );
    await createFlow(server, 'acme', 'attest-custom', ART_TEMPLATE);
    await beginTrail(server, 'acme', 'attest-custom', 'test-321');
    const fp = fingerprint('person-artifact');
    await attestArtifact(server, 'acme', 'attest-custom', {
      fingerprint: fp,
      filename: 'app',
      trail_name: 'test-321',
      template_reference_name: 'art',
      git_commit: commit('c'),
    });
    const data = { name: 'Ada', age: 36 };
    const forms: Array<[Record<string, unknown>, { filename: string; content: string }?]> = [
      [{ attestation_name: 'on-trail' }],
      [{ attestation_name: 'on-artifact', artifact_fingerprint: fp }],
      [
        {
          attestation_name: 'targeted',
          target_artifacts: ['art'],
          git_commit_info: { sha1: commit('c'), author: 'a', message: 'm', timestamp: 1700000000, branch: 'main' },
        },
      ],
      [{ attestation_name: 'with-attachment' }, { filename: 'evidence.txt', content: 'evidence' }],
      [{ attestation_name: 'with-urls', external_urls: { ci: 'https://ci.example.test/1' } }],
      [{ attestation_name: 'with-annotations', annotations: { reviewed_by: 'x' } }],
      [{ attestation_name: 'with-description', description: 'described' }],
    ];
    for (const [fields, attachment] of forms) {
      const reply = await attest(
        server,
        'acme',
        'attest-custom',
        'test-321',
        'custom',
        { type_name: 'person', attestation_data: data, ...fields },
        attachment,
      );
      assert.equal(reply.status, 201, `${String(fields.attestation_name)}: ${reply.text}`);
    }
    const unexpected = (await trailOf('attest-custom', 'test-321')).compliance_status.attestations_statuses;
    assert.ok(unexpected.some((s) => s.attestation_name === 'on-trail' && s.unexpected === true));
    const other = fingerprint('not-in-custom-trail');
    const rejected = await attest<ErrorBody>(server, 'acme', 'attest-custom', 'test-321', 'custom', {
      type_name: 'person',
      attestation_data: data,
      attestation_name: 'x',
      artifact_fingerprint: other,
    });
    assert.ok(rejected.status === 400 || rejected.status === 404);
    assert.equal(
      rejected.body.message,
      `Artifact with fingerprint ${other} does not exist in trail "test-321" of flow "attest-custom" belonging to organization "acme"`,
    );
  });

  it('24: a system decision attestation naming a control: 201, stored as system:decision', async () => {
    created(
      await server.json('POST', '/api/v2/controls/acme', { identifier: 'decided-control', name: 'Decided' }),
      'control',
    );
    const reply = await attest(server, 'acme', 'flow', 'test-123', 'system', {
      attestation_name: 'decision',
      type_name: 'decision',
      control: 'decided-control',
      attestation_data: { is_compliant: true },
    });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(
      (await server.get<Attestation[]>('/api/v2/attestations/acme/flow/trail/test-123/decision')).body[0]
        .attestation_type,
      'system:decision',
    );
  });

  it('25: an override of bar: 200 (reference §8.3 item 12) with or without an original, and it becomes the effective attestation', async () => {
    await beginTrail(server, 'acme', 'flow', 'overridden');
    const body = {
      attestation_name: 'bar',
      reason: 'accepted risk',
      new_compliance_status: true,
      original_attestation_type: 'generic',
    };
    const first = await server.json('POST', '/api/v2/attestations/acme/flow/trail/overridden/override', body);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body, 'OK');
    await attest(server, 'acme', 'flow', 'overridden', 'generic', { attestation_name: 'bar', is_compliant: false });
    assert.equal(
      (await server.json('POST', '/api/v2/attestations/acme/flow/trail/overridden/override', body)).status,
      200,
    );
    const bar = (await trailOf('flow', 'overridden')).compliance_status.attestations_statuses.find(
      (s) => s.attestation_name === 'bar',
    );
    assert.equal(bar?.is_compliant, true);
  });

  it('26: an artifact POST: {"message":"OK"} and an artifact_creation_reported event', async () => {
    const sha = commit('artifact-26');
    const reply = await attestArtifact(server, 'acme', 'flow', {
      fingerprint: fingerprint('cli-26'),
      filename: 'cli',
      trail_name: 'test-123',
      template_reference_name: 'cli',
      git_commit: sha,
      build_url: 'https://ci.example.test/26',
      commit_url: `https://git.example.test/commit/${sha}`,
    });
    assert.deepEqual(reply.body, { message: 'OK' });
    assert.ok((await trailOf('flow', 'test-123')).events.some((e) => e.type === 'artifact_creation_reported'));
    const artifact = (await server.get<Artifact>(`/api/v2/artifacts/acme/flow/fingerprint/${fingerprint('cli-26')}`))
      .body;
    for (const key of [
      'filename',
      'flow_name',
      'trail_name',
      'template_reference_name',
      'fingerprint',
      'git_commit',
      'commit_url',
      'build_url',
      'html_url',
      'state',
    ] as const) {
      assert.equal(typeof artifact[key], 'string', key);
    }
    assert.ok(Array.isArray(artifact.running) && Array.isArray(artifact.exited));
    assert.ok(artifact.history?.every((h) => typeof h.event === 'string' && 'timestamp' in h));
    const [item] = (await server.get<Artifact[]>('/api/v2/artifacts/acme?page=1&per_page=15')).body;
    for (const key of ['git_commit', 'filename', 'fingerprint', 'state'] as const)
      assert.equal(typeof item[key], 'string', key);
    assert.ok(typeof item.git_commit === 'string' && item.git_commit.length >= 7);
  });

  it('27: the same fingerprint again in the same trail under another template name: success', async () => {
    const reply = await attestArtifact(server, 'acme', 'flow', {
      fingerprint: fingerprint('cli-26'),
      filename: 'cli-again',
      trail_name: 'test-123',
      template_reference_name: 'other',
      git_commit: commit('artifact-26'),
    });
    assert.deepEqual(reply.body, { message: 'OK' });
  });

  it('28: an artifact POST with an invalid external-URL entry: 400, errors text naming the fingerprint', async () => {
    const fp = fingerprint('bad-url');
    const reply = await server.json<ErrorBody>('POST', '/api/v2/artifacts/acme/flow', {
      fingerprint: fp,
      filename: 'x',
      trail_name: 'test-123',
      git_commit: commit('bad-url'),
      external_urls: { sbom: { fingerprint: fp } },
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.message, 'Input payload validation failed');
    assert.ok(JSON.stringify(reply.body.errors).includes(fp), reply.text);
  });

  it('29: get an unknown artifact in acme-shared: 404 artifact-not-in-flow', async () => {
    await createFlow(server, 'acme-shared', 'get-artifact');
    const unknown = fingerprint('unknown-artifact');
    const reply = await server.get(`/api/v2/artifacts/acme-shared/get-artifact/fingerprint/${unknown}`);
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, {
      message: `Artifact with fingerprint '${unknown}' does not exist in flow 'get-artifact' belonging to organization 'acme-shared'`,
    });
  });

  it('30: an attestation by name that does not exist: 200 []; an unknown attestation_id: 200 {data: []}', async () => {
    const byName = await server.get('/api/v2/attestations/acme/flow/trail/test-123/never-reported');
    assert.equal(byName.status, 200);
    assert.deepEqual(byName.body, []);
    const byId = await server.get<Page<Attestation>>(
      '/api/v2/attestations/acme?attestation_id=00000000-0000-0000-0000-000000000000',
    );
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body.data, []);
  });

  // Environments

  it('31: create newEnv1 (server); a logical environment over existing ones; an unknown included one: 404', async () => {
    assert.equal((await putEnv('newEnv1', 'server')).body, 'OK');
    const environment = (await server.get<Environment>('/api/v2/environments/acme/newEnv1')).body;
    assert.deepEqual([environment.tags, environment.policies, environment.state], [{}, [], null]);
    created(await putEnv('newEnv2', 'server'), 'newEnv2');
    const logical = await putEnv('logical-ok', 'logical', { included_environments: ['newEnv1', 'newEnv2'] });
    created(logical, 'logical');
    assert.equal(logical.body, 'OK');
    const unknown = await putEnv('logical-bad', 'logical', { included_environments: ['newEnv1', 'not-there'] });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, envMissing('not-there'));
  });

  it('32: create with type k8s or unknown: 400 with a type error echoing the input', async () => {
    for (const type of ['k8s', 'unknown']) {
      const reply = await putEnv<ErrorBody>(`typed-${type}`, type);
      assert.equal(reply.status, 400);
      assert.equal(reply.body.message, 'Input payload validation failed');
      assert.ok(reply.body.errors?.type?.endsWith(`[input: ${type}]`), reply.body.errors?.type);
    }
  });

  it('33: get an unknown environment: 404 environment-not-found', async () => {
    const reply = await server.get('/api/v2/environments/acme/non-existing');
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, envMissing('non-existing'));
  });

  it('34: environment lists: [] for an empty org, the envelope with environments: [] past the end', async () => {
    assert.deepEqual((await server.get('/api/v2/environments/acme-empty')).body, []);
    const beyond = await server.get<EnvironmentPage>('/api/v2/environments/acme?page=99');
    assert.equal(beyond.status, 200);
    assert.deepEqual(beyond.body.environments, []);
    for (const key of ['_links', 'page', 'per_page', 'total_pages', 'total_count']) assert.ok(key in beyond.body, key);
  });

  it('35: rename rename-env: 200; to an illegal name: 400 with the environment pattern', async () => {
    created(await putEnv('rename-env', 'server'), 'rename-env');
    assert.equal(
      (await server.json('PUT', '/api/v2/environments/acme/rename-env/rename', { new_name: 'new-name-456' })).status,
      200,
    );
    const illegal = await server.json<ErrorBody>('PUT', '/api/v2/environments/acme/new-name-456/rename', {
      new_name: 'new~name',
    });
    assert.equal(illegal.status, 400);
    assert.equal(illegal.body.message, 'Input payload validation failed');
    assert.equal(illegal.body.errors?.new_name, `String should match pattern '${ENV_PATTERN}' [input: new~name]`);
  });

  it('36: archive an existing environment: 200', async () => {
    created(await putEnv('archive-env', 'server'), 'archive-env');
    assert.equal((await server.json('PUT', '/api/v2/environments/acme/archive-env/archive', null)).status, 200);
    assert.equal((await server.get('/api/v2/environments/acme/archive-env')).status, 404);
  });

  // Reports and snapshots

  it('37: a server report: 200 "OK"; to an unknown environment: 404 Environment not found; every other type: 200', async () => {
    created(await putEnv('report-env', 'server'), 'report-env');
    const ok = await report('report-env', { '/app/one': fingerprint('one'), '/app/two': fingerprint('two') });
    assert.equal(ok.status, 200);
    assert.equal(ok.body, 'OK');
    const unknown = await report('non-existing', { '/x': fingerprint('x') });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: 'Environment not found' });
    const item = { digests: { 'app:1': fingerprint('typed') }, creationTimestamp: 1700000000 };
    const bodies: Record<string, unknown> = {
      K8S: {
        artifacts: [
          {
            podName: 'p',
            namespace: 'n',
            creationTimestamp: 1700000000,
            digests: { 'app:1': fingerprint('typed') },
            owners: [],
          },
        ],
      },
      ECS: { artifacts: [{ ...item, taskArn: 'arn:t', cluster_name: 'c', service_name: 's' }] },
      S3: { artifacts: [item] },
      lambda: { artifacts: [item] },
      docker: { artifacts: [item] },
      'azure-apps': { artifacts: [{ ...item, app_name: 'web', app_kind: 'app', digests_source: 'registry' }] },
      'cloud-run': {
        type: 'cloud-run',
        artifacts: [{ ...item, kind: 'service', serviceName: 'api', revisionName: 'api-1' }],
      },
    };
    for (const [type, body] of Object.entries(bodies)) {
      const env = `typed-${type.toLowerCase()}`;
      created(await putEnv(env, type), env);
      const reply = await server.json('PUT', `/api/v2/environments/acme/${env}/report/${type}`, body);
      assert.equal(reply.status, 200, `${type}: ${reply.text}`);
      assert.equal(reply.body, 'OK');
    }
  });

  it('38: auto-create: GET 404, PUT creates it, the report succeeds', async () => {
    assert.equal((await server.get('/api/v2/environments/acme/auto-created')).status, 404);
    created(
      await server.json('PUT', '/api/v2/environments/acme', {
        name: 'auto-created',
        type: 'server',
        description: 'Created automatically',
      }),
      'auto-create',
    );
    assert.equal((await server.get<Environment>('/api/v2/environments/acme/auto-created')).body.type, 'server');
    assert.equal((await report('auto-created', { '/a': fingerprint('auto') })).status, 200);
  });

  it('39: snapshot -1 without snapshots: 400 "#-1 resolves to #0"', async () => {
    created(await putEnv('get-snapshot-empty-env', 'server'), 'env');
    const reply = await snapshot('get-snapshot-empty-env', '-1');
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body, snapshotRange('get-snapshot-empty-env#-1', 'get-snapshot-empty-env#0', 0));
  });

  it('40: after three reports: #23 out of range; 1, ~1 and @{now + 1 s} are snapshots', async () => {
    created(await putEnv('get-snapshot-env', 'server'), 'env');
    for (const file of ['/f1', '/f2', '/f3']) {
      assert.equal((await report('get-snapshot-env', { [file]: fingerprint(file) })).status, 200);
    }
    const out = await snapshot('get-snapshot-env', '#23');
    assert.equal(out.status, 400);
    assert.deepEqual(out.body, snapshotRange('get-snapshot-env#23', 'get-snapshot-env#23', 3));
    const soon = new Date(Date.now() + 1000).toISOString().slice(0, 19);
    for (const [expr, index] of [
      ['1', 1],
      ['~1', 2],
      [`@{${soon}}`, 3],
    ] as const) {
      const reply = await snapshot('get-snapshot-env', expr);
      assert.equal(reply.status, 200, `${expr}: ${reply.text}`);
      assert.equal(reply.body.index, index, expr);
      assert.equal(typeof reply.body.compliant, 'boolean');
    }
  });

  it('41: snapshot lists: unknown env 404, [] when empty, arrays for NOW and 1..2 with and without reverse', async () => {
    const unknown = await server.get('/api/v2/snapshots/acme/non-existing?page=1&per_page=15&interval=&reverse=false');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, envMissing('non-existing'));
    assert.deepEqual(
      (await server.get('/api/v2/snapshots/acme/get-snapshot-empty-env?page=1&per_page=15&interval=&reverse=false'))
        .body,
      [],
    );
    const list = async (interval: string, reverse: boolean) =>
      (
        await server.get<SnapshotSummary[]>(
          `/api/v2/snapshots/acme/get-snapshot-env?page=1&per_page=15&interval=${interval}&reverse=${reverse}`,
        )
      ).body;
    assert.deepEqual(
      (await list('NOW', false)).map((s) => s.index),
      [3],
    );
    const range = await list('1..2', false);
    const reversed = await list('1..2', true);
    assert.deepEqual([...range.map((s) => s.index)].sort(), [1, 2]);
    assert.deepEqual(
      reversed.map((s) => s.index),
      [...range.map((s) => s.index)].reverse(),
    );
    for (const item of range) {
      for (const key of ['index', 'to', 'duration'] as const) assert.equal(typeof item[key], 'number', key);
      assert.equal(typeof item.compliant, 'boolean');
    }
  });

  it('42: asserting a snapshot: #-1 error when empty, non-compliant without policies, compliant with provenance + trail-compliance', async () => {
    const empty = await snapshot('get-snapshot-empty-env', '-1');
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body, snapshotRange('get-snapshot-empty-env#-1', 'get-snapshot-empty-env#0', 0));
    assert.equal((await snapshot('get-snapshot-env', '-1')).body.compliant, false);

    await createFlow(server, 'acme', 'empty-template-flow');
    await beginTrail(server, 'acme', 'empty-template-flow', 'build');
    const fp = fingerprint('provenanced');
    await attestArtifact(server, 'acme', 'empty-template-flow', {
      fingerprint: fp,
      filename: 'app',
      trail_name: 'build',
      git_commit: commit('provenanced'),
    });
    const policy = await server.multipart('PUT', '/api/v2/policies/acme', {
      payload: JSON.stringify({ name: 'prov-and-trail' }),
      policy_file: { filename: 'p.yml', content: PROVENANCE_AND_TRAIL },
    });
    assert.equal(policy.status, 201, policy.text);
    created(await putEnv('assert-env', 'server', { policies: ['prov-and-trail'] }), 'assert-env');
    assert.equal((await report('assert-env', { '/app': fp })).status, 200);
    const compliant = await snapshot('assert-env', '-1');
    assert.equal(compliant.body.compliant, true, compliant.text);
  });

  it('43: asserting a snapshot of an unknown environment: 404 environment-not-found', async () => {
    const reply = await snapshot('non-existing', '-1');
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, envMissing('non-existing'));
  });

  it('44: a diff of two environments without snapshots: 400 with the bare name in the expression', async () => {
    created(await putEnv('env1-to-diff', 'server'), 'env');
    created(await putEnv('env2-to-diff', 'server'), 'env');
    const reply = await server.get('/api/v2/env-diff/acme?snappish1=env1-to-diff&snappish2=env2-to-diff');
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body, snapshotRange('env1-to-diff', 'env1-to-diff#0', 0));
  });

  it('45: environment events: 404, [], arrays for every query form, and Invalid interval value', async () => {
    assert.equal((await server.get('/api/v2/environments/acme/non-existing/events')).status, 404);
    created(await putEnv('events-env', 'server'), 'env');
    assert.deepEqual((await server.get('/api/v2/environments/acme/events-env/events')).body, []);
    await report('events-env', { file1: fingerprint('file1') });
    await report('events-env', { file1: fingerprint('file1'), file2: fingerprint('file2') });
    // repo_name filters by repos artifacts came from; an unknown one is 404 (reference §8.3 item 16).
    for (const name of ['a', 'b'])
      await attestArtifact(server, 'acme', 'flow', {
        fingerprint: fingerprint(`repo-${name}`),
        filename: name,
        git_commit: commit(`repo-${name}`),
        repo_info: { name, url: `https://git.example.test/${name}`, provider: 'github', id: `repo-${name}` },
      });
    assert.deepEqual((await server.get('/api/v2/environments/acme/events-env/events?repo_name=c')).body, {
      message: "Repo 'c' not found",
    });
    const queries = [
      '',
      '?interval=NOW',
      '?interval=1..2',
      '?interval=1..2&reverse=true',
      '?repo_name=a',
      '?repo_name=a&repo_name=b',
      '?start=1',
      '?end=2',
      '?start=1hour&end=NOW',
      '?start_ts=1700000000&end_ts=1700086400',
      '?start_ts=1700000000.5',
    ];
    for (const query of queries) {
      const reply = await server.get<EnvironmentEvent[]>(`/api/v2/environments/acme/events-env/events${query}`);
      assert.equal(reply.status, 200, `${query}: ${reply.text}`);
      assert.ok(Array.isArray(reply.body), query);
      for (const event of reply.body) {
        for (const key of ['snapshot_index', 'reported_at'] as const) assert.equal(typeof event[key], 'number', key);
        for (const key of ['artifact_name', 'sha256', 'description', 'pipeline'] as const)
          assert.equal(typeof event[key], 'string', key);
      }
    }
    assert.ok((await server.get<EnvironmentEvent[]>('/api/v2/environments/acme/events-env/events')).body.length >= 2);
    for (const [query, value] of [
      ['start=', ''],
      ['end=', ''],
      ['start=bogus', 'bogus'],
      ['end=bogus', 'bogus'],
    ]) {
      const reply = await server.get(`/api/v2/environments/acme/events-env/events?${query}`);
      assert.equal(reply.status, 400, query);
      assert.deepEqual(reply.body, { message: `Invalid interval value: ${value}` });
    }
  });

  // Search and assert

  it('46: search: unknown SHA 404; a known fingerprint or commit: resolved_to and artifacts with history', async () => {
    const unknown = await server.get('/api/v2/search/acme/sha/f040404f9fb3447ed0c8ad48c6af12d5e94513ca');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "No matches for 'f040404f9fb3447ed0c8ad48c6af12d5e94513ca'." });
    for (const value of [fingerprint('cli-26'), commit('artifact-26')]) {
      const found = await server.get<SearchResult>(`/api/v2/search/acme/sha/${value}`);
      assert.equal(found.status, 200, found.text);
      assert.equal(typeof found.body.resolved_to, 'object');
      assert.ok(found.body.artifacts.length >= 1);
      assert.ok(found.body.artifacts[0].history?.some((h) => h.event.endsWith(' reported')));
    }
  });

  it('47: assert an artifact: flow scope with html_url, two flows, unknown 404, environment and policy scopes, missing decision', async () => {
    await createFlow(server, 'acme', 'assert-artifact-one');
    await createFlow(server, 'acme', 'assert-artifact-two');
    const fp = fingerprint('asserted');
    for (const flow of ['assert-artifact-one', 'assert-artifact-two']) {
      await beginTrail(server, 'acme', flow, 'build');
      await attestArtifact(server, 'acme', flow, {
        fingerprint: fp,
        filename: 'app',
        trail_name: 'build',
        git_commit: commit('asserted'),
      });
    }
    const one = (await server.get<AssertResult>(`/api/v2/asserts/acme/fingerprint/${fp}?flow_name=assert-artifact-one`))
      .body;
    assert.equal(one.compliant, true);
    assert.equal(one.scope, 'flow');
    assert.equal(one.flows.length, 1);
    const url = new RegExp(
      `^${server.url.replace(/\./g, '\\.')}/acme/flows/assert-artifact-one/artifacts/${fp}\\?artifact_id=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}$`,
    );
    assert.ok(one.html_url, 'a flow-scoped assert links the artifact');
    assert.match(one.html_url, url);
    assert.equal((await server.get<AssertResult>(`/api/v2/asserts/acme/fingerprint/${fp}`)).body.flows.length, 2);
    const unknown = fingerprint('never-attested');
    const missing = await server.get(`/api/v2/asserts/acme/fingerprint/${unknown}?flow_name=assert-artifact-one`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, {
      message: `Artifact with fingerprint '${unknown}' does not exist in flow 'assert-artifact-one' belonging to organization 'acme'`,
    });
    const environment = (
      await server.get<AssertResult>(`/api/v2/asserts/acme/fingerprint/${fp}?environment_name=assert-env`)
    ).body;
    assert.equal(environment.scope, 'environment');
    assert.equal(environment.environment, 'assert-env');
    assert.equal(environment.policy_evaluations?.length, 1);
    const policy = (await server.get<AssertResult>(`/api/v2/asserts/acme/fingerprint/${fp}?policy_name=prov-and-trail`))
      .body;
    assert.equal(policy.scope, 'policy');
    assert.equal(policy.policy_evaluations?.[0].policy_name, 'prov-and-trail');
    const decisionPolicy = `${POLICY_SCHEMA}\nartifacts:\n  attestations:\n    - name: decision\n      type: decision\n      for_control: decided-control\n`;
    assert.equal(
      (
        await server.multipart('PUT', '/api/v2/policies/acme', {
          payload: JSON.stringify({ name: 'needs-decision' }),
          policy_file: decisionPolicy,
        })
      ).status,
      201,
    );
    const decision = (
      await server.get<AssertResult>(`/api/v2/asserts/acme/fingerprint/${fp}?policy_name=needs-decision`)
    ).body;
    assert.equal(decision.compliant, false);
    const [resolution] = decision.policy_evaluations?.[0].rule_evaluations[0].resolutions ?? [];
    assert.ok(resolution, 'the failed rule says how to resolve it');
    assert.equal(resolution.type, 'missing_attestation');
    assert.equal(resolution.context?.for_control, 'decided-control');
  });

  // Policies and controls

  it('48: create policy: 201; an unknown policy: 404 naming it (reference §8.2 item 8); an empty org lists []', async () => {
    const reply = await server.multipart('PUT', '/api/v2/policies/acme', {
      payload: JSON.stringify({ name: 'created-48' }),
      policy_file: { filename: 'p.yml', content: PROVENANCE_AND_TRAIL },
    });
    assert.equal(reply.status, 201);
    const policy = (await server.get<Policy>('/api/v2/policies/acme/created-48')).body;
    assert.equal(policy.versions.at(-1)?.policy_yaml, PROVENANCE_AND_TRAIL);
    assert.ok(Array.isArray(policy.consuming_envs));
    assert.equal(typeof policy.created_at, 'number');
    const unknown = await server.get('/api/v2/policies/acme/non-existing');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Policy 'non-existing' does not exist in organization 'acme'" });
    assert.deepEqual((await server.get('/api/v2/policies/acme-empty')).body, []);
  });

  it('49: attach a policy: 200, and the latest snapshot is re-evaluated with it', async () => {
    created(await putEnv('attach-env', 'server'), 'env');
    assert.equal((await report('attach-env', { '/app': fingerprint('provenanced') })).status, 200);
    assert.equal((await snapshot('attach-env', '-1')).body.compliant, false);
    assert.equal(
      (await server.json('POST', '/api/v2/environments/acme/attach-env/policies', { policy_names: ['prov-and-trail'] }))
        .status,
      200,
    );
    assert.equal((await snapshot('attach-env', '-1')).body.compliant, true);
  });

  it('50: create my-control: 201; again: 409; bad identifier: 400 pattern error', async () => {
    assert.equal(
      (await server.json('POST', '/api/v2/controls/acme', { identifier: 'my-control', name: 'Mine' })).status,
      201,
    );
    const again = await server.json('POST', '/api/v2/controls/acme', { identifier: 'my-control', name: 'Mine' });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, {
      message: "A control with identifier 'my-control' already exists in organization 'acme'",
    });
    const bad = await server.json<ErrorBody>('POST', '/api/v2/controls/acme', {
      identifier: 'bad identifier',
      name: 'Bad',
    });
    assert.equal(bad.status, 400);
    assert.equal(
      bad.body.errors?.identifier,
      "String should match pattern '^[a-zA-Z0-9\\-._~]+$' [input: bad identifier]",
    );
  });

  it('51: get no-such-control: 404; an existing control has identifier and name', async () => {
    const missing = await server.get('/api/v2/controls/acme/no-such-control');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: "Control 'no-such-control' does not exist in organization 'acme'" });
    const control = (await server.get<Control>('/api/v2/controls/acme/my-control')).body;
    assert.equal(control.identifier, 'my-control');
    assert.equal(control.name, 'Mine');
  });

  it('52: control lists hide archived ones unless archived=true; page=999 is empty', async () => {
    assert.equal(
      (await server.json('POST', '/api/v2/controls/acme', { identifier: 'archived-control', name: 'Old' })).status,
      201,
    );
    assert.equal((await server.json('POST', '/api/v2/controls/acme/archived-control/archive')).status, 200);
    const ids = async (query: string) =>
      (await server.get<ControlPage>(`/api/v2/controls/acme${query}`)).body.controls.map((c) => c.identifier);
    assert.ok(!(await ids('')).includes('archived-control'));
    assert.ok((await ids('?archived=true')).includes('archived-control'));
    assert.deepEqual(await ids('?page=999'), []);
  });

  it('53: update a control: 200 with the updated object; archive then unarchive: 200 each', async () => {
    const updated = await server.json<Control>('PUT', '/api/v2/controls/acme/my-control', {
      name: 'Renamed',
      description: 'd',
      links: { docs: 'https://docs.example.test' },
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.name, 'Renamed');
    assert.equal(updated.body.description, 'd');
    assert.equal(updated.body.version, 2);
    assert.equal((await server.json('POST', '/api/v2/controls/acme/my-control/archive')).status, 200);
    assert.equal((await server.json('POST', '/api/v2/controls/acme/my-control/unarchive')).status, 200);
  });

  // Tags, types, allowlists, repos, users

  it('54: tags: set and remove (even a missing key) on environments, flows, controls and repos (by repo id)', async () => {
    created(await putEnv('tag-env', 'server'), 'env');
    const tag = (type: string, id: string, body: unknown) =>
      server.json('PATCH', `/api/v2/tags/acme/${type}/${id}`, body);
    for (const [type, id] of [
      ['environment', 'tag-env'],
      ['flow', 'flow'],
      ['control', 'my-control'],
    ]) {
      const set = await tag(type, id, { set_tags: { foo: 'bar' } });
      assert.equal(set.status, 200, `${type}: ${set.text}`);
      assert.equal(set.body, 'OK');
      const removed = await tag(type, id, { remove_tags: ['non-existing'] });
      assert.equal(removed.body, 'OK', `${type}: ${removed.text}`);
    }
    assert.deepEqual((await server.get<Environment>('/api/v2/environments/acme/tag-env')).body.tags, { foo: 'bar' });
    await beginTrail(server, 'acme', 'flow', 'with-repo', {
      repo_info: { name: 'acme/tagged', url: 'https://git.example.test/acme/tagged', provider: 'github', id: 'r-1' },
    });
    assert.equal((await tag('repo', 'r-1', { set_tags: { foo: 'bar' } })).body, 'OK');
    assert.equal((await tag('repos', 'r-1', { remove_tags: ['non-existing'] })).body, 'OK');
    assert.deepEqual((await server.get<Repo>('/api/v2/repos/acme/acme%2Ftagged')).body.tags, { foo: 'bar' });
    const unknown = await tag('repo', 'no-such-repo', { set_tags: { foo: 'bar' } });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Repo 'no-such-repo' not found" });
  });

  it('55: custom type wibble with a schema and .age > 21; unknown type and version messages; archive', async () => {
    const wibble = await server.multipart('POST', '/api/v2/custom-attestation-types/acme', {
      data_json: JSON.stringify({
        name: 'wibble',
        description: 'w',
        evaluator: { content_type: 'jq', rules: ['.age > 21'] },
      }),
      type_schema: {
        filename: 'schema.json',
        content: JSON.stringify({ type: 'object', properties: { age: { type: 'integer' } } }),
      },
    });
    created(wibble, 'wibble');
    const missing = await server.get('/api/v2/custom-attestation-types/acme/non-existing');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: "Custom attestation type 'non-existing' does not exist for org 'acme'" });
    const version = await server.get('/api/v2/custom-attestation-types/acme/wibble?version=10');
    assert.equal(version.status, 404);
    assert.deepEqual(version.body, { message: "version 10 does not exist for custom attestation type 'wibble'" });
    created(await server.json('PUT', '/api/v2/custom-attestation-types/acme/wibble/archive', null), 'archive');
  });

  it('56: PUT /allowlists/acme/allow-artifact-env with a fingerprint and a description: success', async () => {
    created(await putEnv('allow-artifact-env', 'server'), 'env');
    const entry = { artifact_name: 'app', artifact_fingerprint: fingerprint('allowed'), description: 'known good' };
    const reply = await server.json('PUT', '/api/v2/allowlists/acme/allow-artifact-env', entry);
    created(reply, 'allowlist');
    assert.equal(reply.body, 'OK');
    const listed = (await server.get<AllowlistEntry[]>('/api/v2/allowlists/acme')).body;
    assert.deepEqual(
      listed.map((e) => [e.environment_name, e.artifact_name, e.artifact_fingerprint, e.description]),
      [['allow-artifact-env', 'app', entry.artifact_fingerprint, 'known good']],
    );
    const unknown = await server.json('PUT', '/api/v2/allowlists/acme/non-existing', entry);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, envMissing('non-existing'));
  });

  it('57: get repo non-existing: Repo not found; an org without repos lists an empty repos list', async () => {
    const missing = await server.get('/api/v2/repos/acme/non-existing');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: "Repo 'non-existing' not found" });
    const empty = await server.get<RepoPage>('/api/v2/repos/acme-empty');
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body.repos, []);
    for (const key of ['page', 'total_pages', 'total_count', '_links']) assert.ok(key in empty.body, key);
  });

  it('58: PUT /user/<not a member>: 403 Access denied; PUT /user/acme as a member: 200', async () => {
    const denied = await server.json('PUT', '/api/v2/user/non-existing-org-abc123', null);
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.body, { message: 'Access denied to /api/v2/user/non-existing-org-abc123' });
    assert.equal((await server.json('PUT', '/api/v2/user/acme', null)).status, 200);
    assert.deepEqual((await server.get('/api/v2/user/default-org')).body, { default_org_name: 'acme' });
  });

  it('59: GET /ready: 200 plain text OK', async () => {
    const reply = await server.get('/ready', { key: null });
    assert.equal(reply.status, 200);
    assert.equal(reply.text, 'OK');
    assert.match(String(reply.headers['content-type']), /^text\/plain/);
  });
});
