// A control's versions, its decisions and its coverage (reference §8.4): hosted operations with
// paths of their own, each answered from what the server keeps (the versions its updates write,
// the decision attestations, the policy decisions of each environment's latest snapshot).
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { controlCoverage, controlVersion, listedDecision } from '../../shared/contract/catalogue.ts';
import type { linkedDataPage } from '../../shared/contract/pagination.ts';
import type { Attestation, Control, ControlDecision } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attestArtifact, beginTrail, commit, createEnvironment, createFlow, fingerprint } from './fixtures.ts';

type ControlVersion = FromSchema<typeof controlVersion>;
type DecisionPage = FromSchema<ReturnType<typeof linkedDataPage<typeof listedDecision>>>;
type ControlCoverage = FromSchema<typeof controlCoverage>;

const POLICY = [
  '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1',
  'artifacts:',
  '  attestations:',
  '    - name: decision',
  '      type: decision',
  '      for_control: ctl',
  '',
].join('\n');

describe('control versions, decisions and coverage (reference §8.4)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      config: ['orgs:', '  - name: acme', '  - name: beta-off', '    features:', '      controls: false'],
    });
    for (const identifier of ['ctl', 'other'])
      assert.equal((await server.json('POST', '/api/v2/controls/acme', { identifier, name: identifier })).status, 201);
    await createFlow(server, 'acme', 'web');
    await beginTrail(server, 'acme', 'web', 't1');
    await attestArtifact(server, 'acme', 'web', {
      fingerprint: fingerprint('app-a'),
      filename: 'reg/app-a:1',
      git_commit: commit('app-a'),
      trail_name: 't1',
      template_reference_name: 'app',
    });
  });
  after(async () => {
    await server?.stop();
  });

  const decide = async (control: string, compliant: boolean): Promise<string> => {
    const reply = await server.multipart('POST', '/api/v2/attestations/acme/web/trail/t1/system', {
      data_json: JSON.stringify({
        attestation_name: 'decision',
        type_name: 'decision',
        control,
        attestation_data: { is_compliant: compliant },
        artifact_fingerprint: fingerprint('app-a'),
      }),
    });
    assert.equal(reply.status, 201, reply.text);
    return (await server.get<Attestation[]>('/api/v2/attestations/acme/web/trail/t1/decision')).body[0].attestation_id;
  };

  it('GET .../versions and .../versions/{version_number}: every version an update made, oldest first', async () => {
    assert.equal((await server.json('PUT', '/api/v2/controls/acme/ctl', { name: 'Control two' })).status, 200);
    const updated = await server.json<Control>('PUT', '/api/v2/controls/acme/ctl', { description: 'now described' });
    assert.equal(updated.body.version, 3);
    const versions = await server.get<ControlVersion[]>('/api/v2/controls/acme/ctl/versions');
    assert.equal(versions.status, 200, versions.text);
    assert.deepEqual(
      versions.body.map((version) => [version.version, version.name, version.description]),
      [
        [1, 'ctl', ''],
        [2, 'Control two', ''],
        [3, 'Control two', 'now described'],
      ],
    );
    assert.ok(versions.body.every((version) => version.identifier === 'ctl' && version.created_by !== ''));
    assert.ok(versions.body[0].created_at <= versions.body[2].created_at);
    const second = await server.get<ControlVersion>('/api/v2/controls/acme/ctl/versions/2');
    assert.deepEqual(second.body, versions.body[1]);
    const never = await server.get('/api/v2/controls/acme/ctl/versions/9');
    assert.deepEqual([never.status, never.body], [404, { message: "version 9 does not exist for control 'ctl'" }]);
    const unknown = await server.get('/api/v2/controls/acme/nope/versions');
    assert.deepEqual(
      [unknown.status, unknown.body],
      [404, { message: "Control 'nope' does not exist in organization 'acme'" }],
    );
    assert.equal((await server.get('/api/v2/controls/acme/ctl/versions/0')).status, 400);
  });

  it('GET .../decisions: the decisions on the control, newest first, paged, each as its own route answers it', async () => {
    const ids = [await decide('ctl', false), await decide('other', true), await decide('ctl', true)];
    const third = await decide('ctl', true);
    const all = await server.get<DecisionPage>('/api/v2/controls/acme/ctl/decisions');
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(
      all.body.data.map((decision) => decision.decision_id),
      [third, ids[2], ids[0]],
    );
    assert.deepEqual(all.body.pagination, { total: 3, page: 1, per_page: 20, page_count: 1 });
    const single = await server.get<ControlDecision>(`/api/v2/controls/acme/ctl/decisions/${ids[0]}`);
    const { decision_id: listedId, ...listed } = all.body.data[2];
    assert.equal(listedId, ids[0]);
    assert.deepEqual(listed, single.body);
    assert.equal(listed.artifact_name, 'reg/app-a:1');
    const second = await server.get<DecisionPage>('/api/v2/controls/acme/ctl/decisions?page=2&per_page=2');
    assert.deepEqual(
      second.body.data.map((decision) => decision.decision_id),
      [ids[0]],
    );
    assert.deepEqual(second.body.pagination, { total: 3, page: 2, per_page: 2, page_count: 2 });
    assert.ok(second.body._links?.prev.href.endsWith('/api/v2/controls/acme/ctl/decisions?page=1&per_page=2'));
    const beyond = await server.get<DecisionPage>('/api/v2/controls/acme/ctl/decisions?page=9&per_page=2');
    assert.deepEqual(beyond.body.data, []);
    assert.deepEqual(
      (await server.get<DecisionPage>('/api/v2/controls/acme/other/decisions')).body.data.map((d) => d.decision_id),
      [ids[1]],
    );
  });

  it("GET .../coverage: the policies asking for the control, and the running artifacts' standing by each latest snapshot", async () => {
    const policy = await server.multipart('PUT', '/api/v2/policies/acme', {
      payload: JSON.stringify({ name: 'needs-decision' }),
      policy_file: POLICY,
    });
    assert.equal(policy.status, 201, policy.text);
    await createEnvironment(server, 'acme', 'prod', 'server');
    await createEnvironment(server, 'acme', 'staging', 'server');
    const attach = await server.json('POST', '/api/v2/environments/acme/prod/policies', {
      policy_names: ['needs-decision'],
    });
    assert.equal(attach.status, 200, attach.text);
    const report = {
      artifacts: [
        { digests: { app: fingerprint('app-a'), tool: fingerprint('tool') }, creationTimestamp: 1_700_000_000 },
      ],
    };
    for (const env of ['prod', 'staging'])
      assert.equal((await server.json('PUT', `/api/v2/environments/acme/${env}/report/server`, report)).status, 200);

    // The latest decision on ctl for app-a is compliant; the tool has no trail, so no decision.
    const coverage = await server.get<ControlCoverage>('/api/v2/controls/acme/ctl/coverage');
    assert.equal(coverage.status, 200, coverage.text);
    assert.deepEqual(coverage.body, {
      identifier: 'ctl',
      policies: ['needs-decision'],
      environments: [
        {
          environment_name: 'prod',
          policies: ['needs-decision'],
          snapshot_index: 1,
          running: 2,
          covered: 1,
          not_covered: 1,
        },
      ],
      running: 2,
      covered: 1,
      not_covered: 1,
    });
    // A later decision against it, and the next report's snapshot, move app-a to not covered.
    await decide('ctl', false);
    assert.equal((await server.json('PUT', '/api/v2/environments/acme/prod/report/server', report)).status, 200);
    const after = (await server.get<ControlCoverage>('/api/v2/controls/acme/ctl/coverage')).body;
    assert.deepEqual(
      [after.environments[0].snapshot_index, after.running, after.covered, after.not_covered],
      [2, 2, 0, 2],
    );
    const none = await server.get<ControlCoverage>('/api/v2/controls/acme/other/coverage');
    assert.deepEqual([none.body.policies, none.body.environments, none.body.running], [[], [], 0]);
  });

  it('answers 403 on each when the controls feature is off', async () => {
    for (const path of ['versions', 'versions/1', 'decisions', 'coverage']) {
      const reply = await server.get(`/api/v2/controls/beta-off/x/${path}`);
      assert.equal(reply.status, 403, path);
    }
  });
});
