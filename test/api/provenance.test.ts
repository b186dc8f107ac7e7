// Running artifacts with provenance: snapshot artifacts carry their flows and the policies'
// verdict on their trails, environment changes reach trails, artifacts and search, and
// assert-artifact and decisions answer from the same evidence. Against the real server.
import assert from 'node:assert/strict';
import type {
  AssertResult,
  Artifact,
  Attestation,
  ControlDecision,
  EnvironmentEvent,
  SearchResult,
  Snapshot,
  Trail,
} from './answers.ts';
import { startServer, type TestServer } from './harness.ts';

const fp = (c: string): string => c.repeat(64);
const COMMIT = 'c0ffee'.padEnd(40, '0');
const SCHEMA = '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1';
const STRICT = `${SCHEMA}\nartifacts:\n  provenance:\n    required: true\n  trail-compliance:\n    required: true\n`;
const DECISION = `${SCHEMA}\nartifacts:\n  attestations:\n    - name: decision\n      type: decision\n      for_control: ctl\n`;
const TEMPLATE =
  'version: 1\ntrail:\n  artifacts:\n    - name: app\n      attestations:\n        - name: tests\n          type: generic\n';

function pods(digests: string[]) {
  return {
    artifacts: digests.map((digest, i) => ({
      podName: `pod-${i}`,
      namespace: 'prod',
      creationTimestamp: 1700000000,
      digests: { [`reg/app-${digest[0]}:1`]: digest },
    })),
  };
}

describe('running artifacts with provenance', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    const flow = await server.multipart('PUT', '/api/v2/flows/acme/template_file', {
      data_json: JSON.stringify({ name: 'web', description: 'the web app' }),
      template_file: { filename: 'template.yml', content: TEMPLATE },
    });
    assert.equal(flow.status, 201, flow.text);
    assert.equal(
      (await server.multipart('PUT', '/api/v2/trails/acme/web', { data_json: JSON.stringify({ name: 't1' }) })).status,
      201,
    );
    const artifact = await server.json('POST', '/api/v2/artifacts/acme/web', {
      fingerprint: fp('a'),
      filename: 'reg/app-a:1',
      trail_name: 't1',
      template_reference_name: 'app',
      git_commit: COMMIT,
      commit_url: `https://git.example/acme/web/commit/${COMMIT}`,
      build_url: 'https://ci.example/builds/1',
      repo_info: { name: 'acme/web', url: 'https://git.example/acme/web' },
    });
    assert.ok(artifact.status === 200 || artifact.status === 201, artifact.text);
    for (const [name, yaml] of [
      ['strict', STRICT],
      ['needs-decision', DECISION],
    ]) {
      const put = await server.multipart('PUT', '/api/v2/policies/acme', {
        payload: JSON.stringify({ name }),
        policy_file: yaml,
      });
      assert.equal(put.status, 201, put.text);
    }
    assert.equal(
      (
        await server.json('PUT', '/api/v2/environments/acme', {
          name: 'prod',
          type: 'K8S',
          description: 'p',
          policies: ['strict'],
        })
      ).status,
      201,
    );
  });
  after(async () => {
    await server?.stop();
  });

  const report = async (digests: string[]) => {
    const reply = await server.json('PUT', '/api/v2/environments/acme/prod/report/K8S', pods(digests));
    assert.equal(reply.status, 200, reply.text);
  };
  const latest = async () => (await server.get<Snapshot>('/api/v2/snapshots/acme/prod/-1')).body;

  it('records provenance and the trail-compliance verdict on snapshot artifacts', async () => {
    await report([fp('a'), fp('b')]);
    const snapshot = await latest();
    assert.equal(snapshot.index, 1);
    const [a, b] = snapshot.artifacts;
    assert.equal(a.flow_name, 'web');
    assert.equal(a.git_commit, COMMIT);
    assert.equal(a.commit_url, `https://git.example/acme/web/commit/${COMMIT}`);
    assert.match(
      a.html_url ?? '',
      /\/acme\/flows\/web\/artifacts\/a{64}\?artifact_id=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}$/,
    );
    assert.deepEqual(
      a.flows?.map((f) => [f.flow_name, f.trail_name, f.template_reference_name, f.repo_name]),
      [['web', 't1', 'app', 'acme/web']],
    );
    assert.equal(a.compliant, false, 'the trail lacks its tests attestation');
    const trailRule = a.policy_decisions?.[0].rule_evaluations.find((r) => r.rule.type === 'trail-compliance');
    assert.equal(trailRule?.resolutions?.[0].type, 'non_compliant_in_trail');
    assert.equal(trailRule?.resolutions?.[0].context?.artifact_status, 'INCOMPLETE');
    assert.equal(b.flow_name, '');
    assert.deepEqual(b.flows, []);
    assert.equal(b.compliant, false);
    assert.equal(snapshot.compliant, false);
  });

  it('tells the trail, the artifact and search where the artifact runs', async () => {
    const trail = (await server.get<Trail>('/api/v2/trails/acme/web/t1')).body;
    const started = trail.events.find((e) => e.type === 'artifact_started_running');
    assert.ok(started, JSON.stringify(trail.events));
    assert.equal(started.environment_name, 'prod');
    assert.equal(started.snapshot_index, 1);
    const artifact = (await server.get<Artifact>(`/api/v2/artifacts/acme/web/fingerprint/${fp('a')}`)).body;
    assert.deepEqual(artifact.running, [{ environment_name: 'prod', snapshot_index: 1 }]);
    assert.ok(artifact.history?.some((h) => h.event === 'Started running in prod#1 environment'));
    const search = (await server.get<SearchResult>(`/api/v2/search/acme/sha/${fp('a')}`)).body;
    assert.deepEqual(search.artifacts[0].running_in, ['prod']);
  });

  it('makes a snapshot with a changed event when the trail becomes compliant, and filters the audit log by flow and repo', async () => {
    const attested = await server.multipart('POST', '/api/v2/attestations/acme/web/trail/t1/generic', {
      data_json: JSON.stringify({ attestation_name: 'tests', artifact_fingerprint: fp('a'), is_compliant: true }),
    });
    assert.equal(attested.status, 201, attested.text);
    await report([fp('a'), fp('b')]);
    const snapshot = await latest();
    assert.equal(snapshot.index, 2, 'same fingerprints, different compliance → a new snapshot');
    assert.equal(snapshot.artifacts[0].compliant, true);
    assert.equal(snapshot.artifacts[0].annotation?.type, 'changed');
    assert.equal(snapshot.artifacts[1].annotation?.type, 'unchanged');
    const events = (await server.get<EnvironmentEvent[]>('/api/v2/environments/acme/prod/events?interval=NOW')).body;
    assert.deepEqual(
      events.map((e) => [e.type, e.sha256, e.pipeline]),
      [['changed', fp('a'), 'web']],
    );
    assert.match(events[0].description ?? '', /non-compliant to compliant/);

    const rows = async (query: string) =>
      (await server.get(`/api/v2/environments/acme/prod/auditlog?${query}`)).text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[6]);
    assert.deepEqual(await rows('flow_names=web'), [fp('a'), fp('a')]);
    assert.deepEqual(await rows('flow_names=no%20provenance'), [fp('b')]);
    assert.deepEqual(await rows('flow_names=web,no%20provenance&event_types=started'), [fp('a'), fp('b')]);
    assert.deepEqual(await rows('repo_names=acme/web&event_types=changed'), [fp('a')]);
    assert.deepEqual(
      (await server.get<EnvironmentEvent[]>('/api/v2/environments/acme/prod/events?repo_name=acme/web')).body.length,
      2,
    );
  });

  it('asserts the artifact in flow, environment and policy scope', async () => {
    const flow = (await server.get<AssertResult>(`/api/v2/asserts/acme/fingerprint/${fp('a')}?flow_name=web`)).body;
    assert.equal(flow.scope, 'flow');
    assert.equal(flow.compliant, true);
    assert.deepEqual(
      flow.flows.map((f) => [f.flow, f.trail, f.compliance_status?.status]),
      [['web', 't1', 'COMPLIANT']],
    );
    assert.match(
      flow.html_url ?? '',
      /\/acme\/flows\/web\/artifacts\/a{64}\?artifact_id=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}$/,
    );
    const environment = (
      await server.get<AssertResult>(`/api/v2/asserts/acme/fingerprint/${fp('a')}?environment_name=prod`)
    ).body;
    assert.equal(environment.scope, 'environment');
    assert.equal(environment.environment, 'prod');
    assert.equal(environment.compliant, true);
    assert.deepEqual(
      environment.policy_evaluations?.map((p) => [p.policy_name, p.status]),
      [['strict', 'COMPLIANT']],
    );
    const policies = (
      await server.get<AssertResult>(
        `/api/v2/asserts/acme/fingerprint/${fp('a')}?policy_name=strict&policy_name=needs-decision`,
      )
    ).body;
    assert.equal(policies.scope, 'policy');
    assert.equal(policies.compliant, false);
    assert.deepEqual(
      policies.policy_evaluations?.map((p) => [p.policy_name, p.status]),
      [
        ['strict', 'COMPLIANT'],
        ['needs-decision', 'NON-COMPLIANT'],
      ],
    );
    const missing = policies.policy_evaluations?.[1].rule_evaluations[0].resolutions?.[0];
    assert.deepEqual([missing?.type, missing?.context?.for_control], ['missing_attestation', 'ctl']);
    assert.equal((await server.get(`/api/v2/asserts/acme/fingerprint/${fp('a')}?policy_name=nope`)).status, 404);
    assert.equal((await server.get(`/api/v2/asserts/acme/fingerprint/${fp('a')}?environment_name=nope`)).status, 404);
  });

  it('answers decisions (spec endpoint 7) and evaluates them in policies', async () => {
    assert.equal(
      (await server.json('POST', '/api/v2/controls/acme', { identifier: 'ctl', name: 'Control' })).status,
      201,
    );
    const decided = await server.multipart('POST', '/api/v2/attestations/acme/web/trail/t1/system', {
      data_json: JSON.stringify({
        attestation_name: 'decision',
        type_name: 'decision',
        control: 'ctl',
        attestation_data: { is_compliant: false },
        artifact_fingerprint: fp('a'),
        description: 'not yet',
        origin_url: 'https://ci.example/2',
        user_data: { reviewer: 'x' },
      }),
    });
    assert.equal(decided.status, 201, decided.text);
    const versions = (await server.get<Attestation[]>('/api/v2/attestations/acme/web/trail/t1/decision')).body;
    const id = versions[0].attestation_id;
    const decision = await server.get<ControlDecision>(`/api/v2/controls/acme/ctl/decisions/${id}`);
    assert.equal(decision.status, 200, decision.text);
    assert.deepEqual(Object.keys(decision.body).sort(), [
      'artifact_fingerprint',
      'artifact_name',
      'attestation_name',
      'control',
      'control_version',
      'description',
      'evidence_files',
      'flow_name',
      'is_compliant',
      'origin_url',
      'timestamp',
      'trail_name',
      'user_data',
    ]);
    assert.equal(decision.body.control, 'ctl');
    assert.equal(decision.body.is_compliant, false);
    assert.equal(decision.body.control_version, 1);
    assert.equal(decision.body.flow_name, 'web');
    assert.equal(decision.body.trail_name, 't1');
    assert.equal(decision.body.artifact_fingerprint, fp('a'));
    assert.equal(decision.body.artifact_name, 'reg/app-a:1');
    assert.equal(decision.body.description, 'not yet');
    assert.deepEqual(decision.body.user_data, { reviewer: 'x' });
    assert.deepEqual(decision.body.evidence_files, []);
    const other = await server.get(`/api/v2/controls/acme/other/decisions/${id}`);
    assert.equal(other.status, 404);
    assert.deepEqual(other.body, { message: 'Control or decision not found' });
    const policy = (
      await server.get<AssertResult>(`/api/v2/asserts/acme/fingerprint/${fp('a')}?policy_name=needs-decision`)
    ).body;
    assert.equal(policy.policy_evaluations?.[0].rule_evaluations[0].resolutions?.[0].type, 'non_compliant_attestation');
  });

  it('records the artifact leaving: exited everywhere', async () => {
    await report([fp('b')]);
    const snapshot = await latest();
    assert.deepEqual(
      snapshot.artifacts.map((a) => [a.fingerprint?.[0], a.annotation?.type]),
      [
        ['b', 'unchanged'],
        ['a', 'exited'],
      ],
    );
    assert.equal(snapshot.artifacts[1].flow_name, 'web', 'an exited artifact keeps its provenance');
    const artifact = (await server.get<Artifact>(`/api/v2/artifacts/acme/web/fingerprint/${fp('a')}`)).body;
    assert.deepEqual(artifact.running, []);
    assert.deepEqual(artifact.exited, [{ environment_name: 'prod', snapshot_index: snapshot.index }]);
    const search = (await server.get<SearchResult>(`/api/v2/search/acme/sha/${fp('a')}`)).body;
    assert.deepEqual(search.artifacts[0].exited_from, ['prod']);
    const trail = (await server.get<Trail>('/api/v2/trails/acme/web/t1')).body;
    assert.ok(trail.events.some((e) => e.type === 'artifact_stopped_running' && e.snapshot_index === snapshot.index));
  });
});
