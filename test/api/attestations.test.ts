// Attestations of every type (spec endpoints 1 and 5, reference §2.3, §6 items 15–25, 30).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FromSchema } from 'json-schema-to-ts';
import type { attestation, flowAttestationRecord } from '../../shared/contract/flows.ts';
import type { dataPage } from '../../shared/contract/pagination.ts';
import type { Attestation, CustomType, ErrorBody, FlowAttestation, Page, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import {
  attest,
  attestArtifact,
  beginTrail,
  commit,
  createFlow,
  fieldError,
  fingerprint,
  scanResults,
  WORKED_TEMPLATE,
} from './fixtures.ts';

/** The attestation lists as the contract has them: `{data, pagination, _links}`. */
type FlowAttestationPage = FromSchema<ReturnType<typeof dataPage<typeof flowAttestationRecord>>>;
type AttestationPage = FromSchema<ReturnType<typeof dataPage<typeof attestation>>>;

const INVALID = 'Input payload validation failed';

describe('attestations', () => {
  let server: TestServer;
  const trail = (name: string) => `/api/v2/trails/acme/flow/${name}`;
  const trailOf = async (name: string) => (await server.get<Trail>(trail(name))).body;
  const latest = async (trailName: string, name: string) =>
    (await server.get<Attestation[]>(`/api/v2/attestations/acme/flow/trail/${trailName}/${name}`)).body[0];

  before(async () => {
    server = await startServer({ args: ['--org', 'acme', '--org', 'other'] });
    await createFlow(server, 'acme', 'flow', WORKED_TEMPLATE);
    await beginTrail(server, 'acme', 'flow', 'test-123');
  });
  after(async () => {
    await server?.stop();
  });

  it('records a generic attestation (201, string body); a non-compliant one makes the trail NON-COMPLIANT', async () => {
    await beginTrail(server, 'acme', 'flow', 'generic');
    const reply = await attest(server, 'acme', 'flow', 'generic', 'generic', { attestation_name: 'bar' });
    assert.equal(reply.status, 201);
    assert.equal(typeof reply.body, 'string');
    const stored = await latest('generic', 'bar');
    assert.equal(stored.attestation_type, 'generic');
    assert.equal(stored.is_compliant, true);
    assert.match(stored.attestation_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}$/);
    assert.equal((await trailOf('generic')).compliance_status.attestations_statuses[0].status, 'COMPLETE');
    assert.equal(
      (await attest(server, 'acme', 'flow', 'generic', 'generic', { attestation_name: 'bar', is_compliant: false }))
        .status,
      201,
    );
    const after = await trailOf('generic');
    assert.equal(after.compliance_state, 'NON-COMPLIANT');
    const event = after.events.at(-1);
    assert.ok(event, 'the trail has events');
    assert.equal(event.type, 'trail_attestation_reported');
    assert.equal(event.template_reference_name, 'bar');
    assert.equal(event.attestation_type, 'generic');
    const versions = (await server.get<Attestation[]>('/api/v2/attestations/acme/flow/trail/generic/bar')).body;
    assert.equal(versions.length, 2);
    assert.equal(versions[0].is_compliant, false, 'newest first');
  });

  it('binds target_artifacts with a commit, and rejects it without fingerprint or commit', async () => {
    await beginTrail(server, 'acme', 'flow', 'targets');
    const bound = await attest(server, 'acme', 'flow', 'targets', 'generic', {
      attestation_name: 'foo',
      target_artifacts: ['cli'],
      git_commit_info: { sha1: commit('t'), author: 'a', message: 'm', timestamp: 1, branch: 'main' },
    });
    assert.equal(bound.status, 201);
    const rejected = await attest<ErrorBody>(server, 'acme', 'flow', 'targets', 'generic', {
      attestation_name: 'foo',
      target_artifacts: ['cli'],
    });
    assert.equal(rejected.status, 400);
    assert.match(rejected.body.message, /requires at least one of: artifact_fingerprint or git_commit_info\./);
    assert.match(
      fieldError(rejected.body, 'target_artifacts'),
      /requires at least one of: artifact_fingerprint or git_commit_info\./,
    );
    const fp = fingerprint('targets');
    const tooMany = await attest<ErrorBody>(server, 'acme', 'flow', 'targets', 'generic', {
      attestation_name: 'foo',
      target_artifacts: ['cli', 'other'],
      artifact_fingerprint: fp,
    });
    assert.equal(tooMany.status, 400);
    assert.ok('target_artifacts' in (tooMany.body.errors ?? {}));
    await attestArtifact(server, 'acme', 'flow', {
      fingerprint: fp,
      filename: 'cli',
      git_commit: commit('t'),
      trail_name: 'targets',
      template_reference_name: 'cli',
    });
    const status = (await trailOf('targets')).compliance_status.artifacts_statuses.cli;
    assert.equal(status.artifact_fingerprint, fp);
    assert.equal(
      status.attestations_statuses?.[0].status,
      'COMPLETE',
      'the pre-bound attestation counts once the artifact arrives',
    );
  });

  it('rejects a fingerprint that is not in the trail with the double-quoted message', async () => {
    const fp = fingerprint('absent');
    const reply = await attest(server, 'acme', 'flow', 'test-123', 'generic', {
      attestation_name: 'foo',
      artifact_fingerprint: fp,
    });
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, {
      message: `Artifact with fingerprint ${fp} does not exist in trail "test-123" of flow "flow" belonging to organization "acme"`,
    });
  });

  it('records junit with an attachment and downloads the exact bytes', async () => {
    const bytes = randomBytes(300_000);
    const reply = await attest(
      server,
      'acme',
      'flow',
      'test-123',
      'junit',
      {
        attestation_name: 'unit',
        junit_results: [{ name: 's', failures: 0, errors: 0, skipped: 1, total: 3, duration: 1.5 }],
      },
      { filename: 'results.tgz', content: bytes },
    );
    assert.equal(reply.status, 201);
    const stored = await latest('test-123', 'unit');
    assert.equal(stored.is_compliant, true);
    const evidence = stored._links?.evidence?.href;
    assert.ok(evidence !== undefined && evidence.endsWith(`/attestation/${stored.attestation_id}/evidence`), evidence);
    const download = await server.raw('GET', new URL(evidence).pathname, undefined, {
      authorization: `Bearer ${server.key}`,
    });
    assert.equal(download.status, 200);
    const response = await fetch(`${server.url}${new URL(evidence).pathname}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), bytes);
    assert.match(String(response.headers.get('content-disposition')), /results\.tgz/);
    const failing = await attest(server, 'acme', 'flow', 'test-123', 'junit', {
      attestation_name: 'unit2',
      junit_results: [{ name: 's', failures: 1, errors: 0, skipped: 0, total: 1 }],
    });
    assert.equal(failing.status, 201);
    assert.equal((await latest('test-123', 'unit2')).is_compliant, false);
    const noEvidence = await server.get(
      `/api/v2/attestations/acme/flow/trail/test-123/attestation/${(await latest('test-123', 'unit2')).attestation_id}/evidence`,
    );
    assert.equal(noEvidence.status, 404);
  });

  it('refuses an attachment over 10 MB with 413 and stores nothing', async () => {
    const before = (await server.get<Page<FlowAttestation>>('/api/v2/attestations/acme/flow?per_page=100')).body
      .pagination.total;
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 7);
    const reply = await attest<ErrorBody>(
      server,
      'acme',
      'flow',
      'test-123',
      'scan',
      { attestation_name: 'big', scan_results: scanResults() },
      { filename: 'big.bin', content: big },
    );
    assert.equal(reply.status, 413);
    assert.equal(typeof reply.body.message, 'string');
    assert.equal(
      (await server.get<Page<FlowAttestation>>('/api/v2/attestations/acme/flow?per_page=100')).body.pagination.total,
      before,
    );
    assert.deepEqual((await server.get('/api/v2/attestations/acme/flow/trail/test-123/big')).body, []);
    const evidenceDirs = readdirSync(join(server.dataDir, 'evidence'));
    for (const dir of evidenceDirs)
      for (const file of readdirSync(join(server.dataDir, 'evidence', dir))) assert.ok(!file.endsWith('.tmp'), file);
    const exact = Buffer.alloc(10 * 1024 * 1024, 8);
    const atLimit = await attest(
      server,
      'acme',
      'flow',
      'test-123',
      'scan',
      { attestation_name: 'limit', scan_results: scanResults() },
      { filename: 'limit.bin', content: exact },
    );
    assert.equal(atLimit.status, 201);
  });

  it('records snyk, jira and pull_request attestations with their compliance rules', async () => {
    const snyk = {
      schema_version: '1',
      tool: { name: 't', version: '1' },
      results: [{ high_count: 0, medium_count: 0, low_count: 0, high: [], medium: [], low: [] }],
    };
    assert.equal(
      (await attest(server, 'acme', 'flow', 'test-123', 'snyk', { attestation_name: 'snyk', snyk_results: snyk }))
        .status,
      201,
    );
    assert.equal((await latest('test-123', 'snyk')).is_compliant, true);
    assert.equal(
      (
        await attest(server, 'acme', 'flow', 'test-123', 'jira', {
          attestation_name: 'jira',
          jira_results: [{ issue_id: 'P-1', issue_url: 'u', issue_exists: true }],
        })
      ).status,
      201,
    );
    assert.equal((await latest('test-123', 'jira')).is_compliant, true);
    assert.equal(
      (await attest(server, 'acme', 'flow', 'test-123', 'jira', { attestation_name: 'jira-empty', jira_results: [] }))
        .status,
      201,
    );
    assert.equal((await latest('test-123', 'jira-empty')).is_compliant, false);
    for (const provider of ['github', 'gitlab', 'bitbucket', 'azure']) {
      const reply = await attest(server, 'acme', 'flow', 'test-123', 'pull_request', {
        attestation_name: `pr-${provider}`,
        git_provider: provider,
        pull_requests: [{ url: 'https://git.example.test/pr/1', state: 'merged', approvers: ['a'] }],
      });
      assert.equal(reply.status, 201, provider);
      assert.equal((await latest('test-123', `pr-${provider}`)).is_compliant, true);
    }
    assert.equal(
      (
        await attest(server, 'acme', 'flow', 'test-123', 'pull_request', {
          attestation_name: 'pr-none',
          git_provider: 'github',
          pull_requests: [],
        })
      ).status,
      201,
    );
    assert.equal((await latest('test-123', 'pr-none')).is_compliant, false);
    const badProvider = await attest<ErrorBody>(server, 'acme', 'flow', 'test-123', 'pull_request', {
      attestation_name: 'pr-x',
      git_provider: 'svn',
      pull_requests: [],
    });
    assert.equal(badProvider.status, 400);
    assert.match(fieldError(badProvider.body, 'git_provider'), /\[input: svn\]$/);
    const missing = await attest(server, 'acme', 'flow', 'test-123', 'junit', { attestation_name: 'j' });
    assert.deepEqual(missing.body, { errors: { junit_results: 'Field required [input: None]' }, message: INVALID });
  });

  it('validates scan data_json by the shared schema: each error with its exact body', async () => {
    assert.equal(
      (
        await attest(server, 'acme', 'flow', 'test-123', 'scan', {
          attestation_name: 'scan',
          scan_results: scanResults(),
        })
      ).status,
      201,
    );
    assert.equal((await latest('test-123', 'scan')).is_compliant, true);
    assert.equal(
      (
        await attest(server, 'acme', 'flow', 'test-123', 'scan', {
          attestation_name: 'scan-red',
          scan_results: scanResults('ERROR'),
        })
      ).status,
      201,
    );
    assert.equal((await latest('test-123', 'scan-red')).is_compliant, false);
    const cases: [unknown, Record<string, string>][] = [
      [
        { attestation_name: 'bad name', scan_results: scanResults() },
        { attestation_name: "String should match pattern '^[a-zA-Z0-9_,-]+$' [input: bad name]" },
      ],
      [{ attestation_name: 'x' }, { scan_results: 'Field required [input: None]' }],
      [
        { attestation_name: 'x', scan_results: scanResults(), artifact_fingerprint: 'abc' },
        { artifact_fingerprint: "String should match pattern '^[a-f0-9]{64}$' [input: abc]" },
      ],
      [
        { attestation_name: 'x', scan_results: { ...scanResults(), project: { key: 'k' } } },
        { 'scan_results.project.url': 'Field required [input: {"key":"k"}]' },
      ],
      [
        { attestation_name: 'x', scan_results: scanResults(), unknown_field: 1 },
        { unknown_field: 'Extra inputs are not permitted [input: 1]' },
      ],
    ];
    for (const [data, errors] of cases) {
      const reply = await attest(server, 'acme', 'flow', 'test-123', 'scan', data);
      assert.equal(reply.status, 400, JSON.stringify(data));
      assert.deepEqual(reply.body, { errors, message: INVALID });
    }
    const notObject = await attest(server, 'acme', 'flow', 'test-123', 'scan', [1]);
    assert.equal(notObject.status, 400);
  });

  it('answers 404 for a scan to a flow or trail that does not exist', async () => {
    const noFlow = await attest(server, 'acme', 'nope', 'test-123', 'scan', {
      attestation_name: 'scan',
      scan_results: scanResults(),
    });
    assert.equal(noFlow.status, 404);
    assert.deepEqual(noFlow.body, { message: "Flow named 'nope' does not exist for organization 'acme'" });
    const noTrail = await attest(server, 'acme', 'flow', 'nope', 'scan', {
      attestation_name: 'scan',
      scan_results: scanResults(),
    });
    assert.equal(noTrail.status, 404);
    assert.deepEqual(noTrail.body, {
      message: "Trail with name 'nope' does not exist for Organization 'acme' and Flow 'flow'",
    });
    assert.equal(
      (await server.multipart('POST', '/api/v2/attestations/acme/flow/trail/test-123/approval', { data_json: '{}' }))
        .status,
      400,
    );
  });

  it('records custom attestations of a custom type: schema checked, jq rules decide compliance', async () => {
    const created = await server.multipart<CustomType>('POST', '/api/v2/custom-attestation-types/acme', {
      data_json: JSON.stringify({
        name: 'person',
        description: 'A person',
        evaluator: { content_type: 'jq', rules: ['.age > 21'] },
      }),
      type_schema: {
        filename: 'schema.json',
        content: JSON.stringify({ type: 'object', properties: { age: { type: 'integer' } }, required: ['age'] }),
      },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.version, 1);
    await createFlow(
      server,
      'acme',
      'attest-custom',
      'version: 1\ntrail:\n  attestations:\n    - name: adult\n      type: custom:person\n',
    );
    await beginTrail(server, 'acme', 'attest-custom', 'test-321');
    assert.equal(
      (
        await attest(server, 'acme', 'attest-custom', 'test-321', 'custom', {
          attestation_name: 'adult',
          type_name: 'person',
          attestation_data: { age: 30 },
        })
      ).status,
      201,
    );
    const trail = (await server.get<Trail>('/api/v2/trails/acme/attest-custom/test-321')).body;
    assert.equal(trail.compliance_state, 'COMPLIANT');
    assert.equal(trail.compliance_status.attestations_statuses[0].attestation_type, 'custom:person');
    assert.equal(
      (
        await attest(server, 'acme', 'attest-custom', 'test-321', 'custom', {
          attestation_name: 'child',
          type_name: 'person',
          attestation_data: { age: 3 },
          description: 'd',
          annotations: { k: 'v' },
        })
      ).status,
      201,
    );
    const child = (await server.get<Attestation[]>('/api/v2/attestations/acme/attest-custom/trail/test-321/child'))
      .body[0];
    assert.equal(child.is_compliant, false);
    assert.equal(child.attestation_type, 'custom:person');
    assert.deepEqual(child.annotations, { k: 'v' });
    const wrong = await attest(server, 'acme', 'attest-custom', 'test-321', 'custom', {
      attestation_name: 'x',
      type_name: 'person',
      attestation_data: { age: 'old' },
    });
    assert.deepEqual(wrong.body, {
      errors: { 'attestation_data.age': 'Input should be a valid integer [input: old]' },
      message: INVALID,
    });
    const unknown = await attest(server, 'acme', 'attest-custom', 'test-321', 'custom', {
      attestation_name: 'x',
      type_name: 'nobody',
      attestation_data: {},
    });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Custom attestation type 'nobody' does not exist for org 'acme'" });
    const fp = fingerprint('custom');
    const notInTrail = await attest(server, 'acme', 'attest-custom', 'test-321', 'custom', {
      attestation_name: 'x',
      type_name: 'person',
      attestation_data: { age: 40 },
      artifact_fingerprint: fp,
    });
    assert.deepEqual(notInTrail.body, {
      message: `Artifact with fingerprint ${fp} does not exist in trail "test-321" of flow "attest-custom" belonging to organization "acme"`,
    });
    const badRule = await server.multipart<ErrorBody>('POST', '/api/v2/custom-attestation-types/acme', {
      data_json: JSON.stringify({ name: 'broken', evaluator: { content_type: 'jq', rules: ['.age >'] } }),
      type_schema: { filename: 'schema.json', content: '{}' },
    });
    assert.equal(badRule.status, 400);
    assert.ok('evaluator.rules[0]' in (badRule.body.errors ?? {}));
    assert.equal(
      (await server.get<ErrorBody>('/api/v2/custom-attestation-types/acme/nobody')).body.message,
      "Custom attestation type 'nobody' does not exist for org 'acme'",
    );
    assert.equal(
      (await server.get<ErrorBody>('/api/v2/custom-attestation-types/acme/person?version=10')).body.message,
      "version 10 does not exist for custom attestation type 'person'",
    );
  });

  it('stores a system decision as system:decision', async () => {
    assert.equal(
      (
        await attest(server, 'acme', 'flow', 'test-123', 'system', {
          attestation_name: 'decided',
          type_name: 'decision',
          control: 'my-control',
          attestation_data: { is_compliant: true },
        })
      ).status,
      201,
    );
    const decision = await latest('test-123', 'decided');
    assert.equal(decision.attestation_type, 'system:decision');
    assert.equal(decision.is_compliant, true);
  });

  it('overrides with a JSON body, with or without an original and with or without a commit', async () => {
    await beginTrail(server, 'acme', 'flow', 'override');
    const body = {
      attestation_name: 'bar',
      reason: 'accepted risk',
      new_compliance_status: true,
      original_attestation_type: 'generic',
    };
    assert.equal(
      (await server.json('POST', '/api/v2/attestations/acme/flow/trail/override/override', body)).status,
      200,
    );
    await attest(server, 'acme', 'flow', 'override', 'generic', { attestation_name: 'bar', is_compliant: false });
    assert.equal((await trailOf('override')).compliance_state, 'NON-COMPLIANT');
    const withCommit = await server.json('POST', '/api/v2/attestations/acme/flow/trail/override/override', {
      ...body,
      git_commit_info: { sha1: commit('o') },
    });
    assert.equal(withCommit.status, 200);
    assert.equal(withCommit.body, 'OK');
    const status = (await trailOf('override')).compliance_status.attestations_statuses[0];
    assert.equal(status.is_compliant, true);
    const versions = (await server.get<Attestation[]>('/api/v2/attestations/acme/flow/trail/override/bar')).body;
    assert.equal(status.attestation_id, versions[0].attestation_id);
    assert.equal(status.overridden_attestation_id, versions[1].attestation_id);
    assert.equal(versions[0].attestation_type, 'override');
    assert.equal(versions[0].reason, 'accepted risk');
    const invalid = await server.json<ErrorBody>('POST', '/api/v2/attestations/acme/flow/trail/override/override', {
      attestation_name: 'bar',
      original_attestation_type: 'nope',
    });
    assert.equal(invalid.status, 400);
    assert.deepEqual(Object.keys(invalid.body.errors ?? {}).sort(), [
      'new_compliance_status',
      'original_attestation_type',
    ]);
  });

  it('takes each body only in the format its operation declares (spec endpoints 1 and 3, reference §2.3), storing nothing otherwise', async () => {
    await beginTrail(server, 'acme', 'flow', 'formats');
    const required = {
      errors: { data_json: 'Field required [input: None]' },
      message: 'Input payload validation failed',
    };
    for (const kind of ['scan', 'generic', 'junit']) {
      const asJson = await server.json('POST', `/api/v2/attestations/acme/flow/trail/formats/${kind}`, {
        attestation_name: 'as-json',
        scan_results: scanResults(),
      });
      assert.equal(asJson.status, 400, kind);
      assert.deepEqual(asJson.body, required, kind);
    }
    const template = await server.json('PUT', '/api/v2/flows/acme/template_file', {
      name: 'as-json',
      description: 'd',
    });
    assert.equal(template.status, 400);
    assert.deepEqual(template.body, required);
    const override = await server.multipart('POST', '/api/v2/attestations/acme/flow/trail/formats/override', {
      data_json: JSON.stringify({
        attestation_name: 'as-json',
        reason: 'r',
        new_compliance_status: true,
        original_attestation_type: 'generic',
      }),
    });
    assert.equal(override.status, 400);
    assert.deepEqual(override.body, {
      errors: { body: 'Input should be a valid dictionary [input: None]' },
      message: 'Input payload validation failed',
    });
    assert.deepEqual((await server.get('/api/v2/attestations/acme/flow/trail/formats/as-json')).body, []);
    assert.equal((await server.get('/api/v2/flows/acme/as-json')).status, 404);
  });

  it('lists a flow’s attestations with time bounds, _links and pagination; Flow not found otherwise', async () => {
    await createFlow(server, 'acme', 'listed');
    await beginTrail(server, 'acme', 'listed', 't');
    for (let index = 0; index < 5; index++)
      await attest(server, 'acme', 'listed', 't', 'generic', {
        attestation_name: `a${index}`,
        user_data: { 'k.with.dots': index },
      });
    const page = (await server.get<FlowAttestationPage>('/api/v2/attestations/acme/listed?page=2&per_page=2')).body;
    assert.deepEqual(page.pagination, { total: 5, page: 2, per_page: 2, page_count: 3 });
    assert.deepEqual(
      page.data.map((record) => record.attestation_name),
      ['a2', 'a1'],
    );
    assert.ok(page._links, 'a page of the list links the others');
    assert.deepEqual(Object.keys(page._links).sort(), ['first', 'last', 'next', 'prev', 'self']);
    assert.match(
      page._links.next.href,
      /^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/attestations\/acme\/listed\?page=3&per_page=2$/,
    );
    const record = page.data[0];
    for (const field of [
      'attestation_id',
      'attestation_name',
      'attestation_type',
      'created_at',
      'description',
      'has_audit_package',
      'html_url',
      'is_compliant',
      'origin_url',
      'reported_by',
      'schema_version',
      'user_data',
    ]) {
      assert.ok(field in record, field);
    }
    assert.deepEqual(record.user_data, { 'k.with.dots': 2 });
    const all = (await server.get<Page<FlowAttestation>>('/api/v2/attestations/acme/listed?per_page=100')).body.data;
    const cut = all[2].created_at;
    const bounded = (
      await server.get<Page<FlowAttestation>>(`/api/v2/attestations/acme/listed?from_timestamp=${cut}&per_page=100`)
    ).body;
    assert.ok(bounded.data.every((entry) => entry.created_at >= cut));
    assert.equal(
      (await server.get<Page<FlowAttestation>>('/api/v2/attestations/acme/listed?to_timestamp=1')).body.pagination
        .total,
      0,
    );
    const missing = await server.get('/api/v2/attestations/acme/no-flow');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: 'Flow not found' });
  });

  it('reads by name ([] when none) and by id across the org ({data: []} for an unknown id)', async () => {
    assert.deepEqual((await server.get('/api/v2/attestations/acme/flow/trail/test-123/never-reported')).body, []);
    assert.deepEqual(
      (
        await server.get<Page<Attestation>>(
          '/api/v2/attestations/acme?attestation_id=00000000-0000-0000-0000-000000000000',
        )
      ).body.data,
      [],
    );
    const known = await latest('test-123', 'scan');
    const byId = (
      await server.get<Page<Attestation>>(`/api/v2/attestations/acme?attestation_id=${known.attestation_id}`)
    ).body;
    assert.equal(byId.data.length, 1);
    assert.deepEqual(byId.data[0].scan_results, scanResults());
    const cursor = (await server.get<AttestationPage>('/api/v2/attestations/acme?per_page=3')).body;
    assert.equal(cursor.data.length, 3);
    assert.ok(cursor._links, 'a page with more after it links the next one');
    const nextUrl = new URL(cursor._links.next.href);
    const next = (await server.get<Page<Attestation>>(nextUrl.pathname + nextUrl.search)).body;
    assert.notEqual(next.data[0].attestation_id, cursor.data[2].attestation_id);
    assert.deepEqual(
      (await server.get<Page<Attestation>>(`/api/v2/attestations/other?attestation_id=${known.attestation_id}`)).body
        .data,
      [],
      'another org sees nothing',
    );
  });
});
