// Environment policies (reference §2.9, §4, spec endpoint 11) and attaching them (§2.5), against
// the real server.
import assert from 'node:assert/strict';
import type { Environment, EnvironmentEvent, ErrorBody, Policy, Snapshot } from './answers.ts';
import { valueAt } from './valueAt.ts';
import { startServer, type TestServer } from './harness.ts';

const SCHEMA = '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1';
const PROVENANCE = `${SCHEMA}\nartifacts:\n  provenance:\n    required: true\n`;
const NOTHING_REQUIRED = `${SCHEMA}\nartifacts:\n  provenance:\n    required: false\n`;
const fp = (c: string): string => c.repeat(64);

describe('policies', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme', '--org', 'empty'] });
  });
  after(async () => {
    await server?.stop();
  });

  const putPolicy = <T = unknown>(payload: unknown, yaml: string | undefined, asFile = true) => {
    const parts: Record<string, string | { filename: string; content: string }> = {};
    if (payload !== undefined) parts.payload = JSON.stringify(payload);
    if (yaml !== undefined) parts.policy_file = asFile ? { filename: 'policy.yml', content: yaml } : yaml;
    return server.multipart<T>('PUT', '/api/v2/policies/acme', parts);
  };

  it('creates with 201, adds a version only when the content changes (200), and reads back spec endpoint 11', async () => {
    assert.deepEqual((await server.get('/api/v2/policies/empty')).body, []);
    const created = await putPolicy(
      { name: 'prov', description: 'provenance', comment: 'first', type: 'env' },
      PROVENANCE,
    );
    assert.equal(created.status, 201, created.text);
    const same = await putPolicy({ name: 'prov', description: 'provenance', type: 'env' }, PROVENANCE);
    assert.equal(same.status, 200);
    const changed = await putPolicy({ name: 'prov', comment: 'second' }, `${PROVENANCE}  # a comment\n`, false);
    assert.equal(changed.status, 200);
    const policy = (await server.get<Policy>('/api/v2/policies/acme/prov')).body;
    assert.equal(policy.name, 'prov');
    assert.equal(policy.description, 'provenance');
    assert.equal(policy.archived, false);
    assert.deepEqual(policy.consuming_envs, []);
    assert.equal(typeof policy.created_at, 'number');
    assert.equal(typeof policy.last_modified_at, 'number');
    assert.equal(policy.created_by, 'admin');
    assert.deepEqual(
      policy.versions.map((v) => [v.version, v.comment]),
      [
        [1, 'first'],
        [2, 'second'],
      ],
    );
    assert.equal(policy.versions[0].policy_yaml, PROVENANCE);
    assert.deepEqual(
      policy.events.map((e) => [e.type, e.data?.version]),
      [
        ['policy_created', 1],
        ['policy_version_created', 2],
      ],
    );
    for (const event of policy.events) {
      assert.equal(typeof event.timestamp, 'number');
      assert.equal(event.user, 'admin');
    }
    const list = (await server.get<Policy[]>('/api/v2/policies/acme')).body;
    assert.deepEqual(
      list.map((p: { name: string }) => p.name),
      ['prov'],
    );
  });

  it('answers 404 naming an unknown policy and its org', async () => {
    const reply = await server.get('/api/v2/policies/acme/nope');
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, { message: "Policy 'nope' does not exist in organization 'acme'" });
  });

  it('rejects a missing payload, a bad name, YAML syntax errors and schema errors with 400 and field paths, storing nothing', async () => {
    const noPayload = await putPolicy(undefined, PROVENANCE);
    assert.equal(noPayload.status, 400);
    assert.deepEqual(noPayload.body, {
      message: 'Input payload validation failed',
      errors: { payload: 'Field required [input: None]' },
    });
    const noFile = await putPolicy<ErrorBody>({ name: 'nofile' }, undefined);
    assert.equal(noFile.status, 400);
    assert.equal(noFile.body.errors?.policy_file, 'Field required [input: None]');
    const noName = await putPolicy<ErrorBody>({ description: 'nameless' }, PROVENANCE);
    assert.equal(noName.status, 400);
    assert.equal(noName.body.errors?.name, 'Field required [input: None]');
    const badType = await putPolicy<ErrorBody>({ name: 'typed', type: 'artifact' }, PROVENANCE);
    assert.equal(badType.status, 400);
    assert.equal(badType.body.errors?.type, "Input should be 'env' [input: artifact]");
    const syntax = await putPolicy<ErrorBody>({ name: 'broken' }, `${SCHEMA}\nartifacts: [\n`);
    assert.equal(syntax.status, 400);
    assert.match(Object.values(syntax.body.errors ?? {}).join(' '), /line \d+, column \d+/);
    const schema = await putPolicy<ErrorBody>(
      { name: 'wrong' },
      `${SCHEMA}\nartifacts:\n  provenance:\n    required: maybe\n`,
    );
    assert.equal(schema.status, 400);
    assert.ok('policy_file.artifacts.provenance.required' in (schema.body.errors ?? {}), JSON.stringify(schema.body));
    for (const name of ['nofile', 'broken', 'wrong'])
      assert.equal((await server.get(`/api/v2/policies/acme/${name}`)).status, 404, name);
  });

  it('stores a policy whose condition is not a valid expression, as the service does, and fails that rule when it is evaluated', async () => {
    const text = `${SCHEMA}\nartifacts:\n  provenance:\n    required: true\n    exceptions:\n      - if: \${{ flow.name == }}\n`;
    const stored = await putPolicy({ name: 'badexpr' }, text);
    assert.equal(stored.status, 201, stored.text);
    assert.equal((await server.get<Policy>('/api/v2/policies/acme/badexpr')).body.versions[0].policy_yaml, text);
    assert.equal(
      (await server.json('PUT', '/api/v2/environments/acme', { name: 'exprenv', type: 'server', description: 'e' }))
        .status,
      201,
    );
    await server.json('PUT', '/api/v2/environments/acme/exprenv/report/server', {
      artifacts: [{ digests: { app: fp('e') }, creationTimestamp: 1 }],
    });
    assert.equal(
      (await server.json('POST', '/api/v2/environments/acme/exprenv/policies', { policy_names: ['badexpr'] })).status,
      200,
    );
    const [artifact] = (await server.get<Snapshot>('/api/v2/snapshots/acme/exprenv/-1')).body.artifacts;
    assert.ok(artifact.policy_decisions, JSON.stringify(artifact));
    const [evaluation] = artifact.policy_decisions[0].rule_evaluations;
    assert.equal(artifact.policy_decisions[0].status, 'NON-COMPLIANT');
    assert.equal(evaluation.satisfied, false);
    assert.match(evaluation.error ?? '', /^the condition \$\{\{ flow\.name == \}\} is not a valid expression: /);
    assert.ok(
      artifact.reasons_for_incompliance?.some((reason: string) => reason.includes('is not a valid expression')),
      JSON.stringify(artifact.reasons_for_incompliance),
    );
  });

  it('attaches and detaches, re-evaluating the latest snapshot into a new one', async () => {
    await putPolicy({ name: 'lenient' }, NOTHING_REQUIRED);
    assert.equal(
      (await server.json('PUT', '/api/v2/environments/acme', { name: 'prod', type: 'server', description: 'p' }))
        .status,
      201,
    );
    await server.json('PUT', '/api/v2/environments/acme/prod/report/server', {
      artifacts: [{ digests: { app: fp('a') }, creationTimestamp: 1 }],
    });
    let latest = (await server.get<Snapshot>('/api/v2/snapshots/acme/prod/-1')).body;
    assert.equal(latest.index, 1);
    assert.equal(latest.compliant, false, 'no policy → not compliant');
    assert.equal((await server.get<Environment>('/api/v2/environments/acme/prod')).body.state, null);

    const attached = await server.json('POST', '/api/v2/environments/acme/prod/policies', { policy_names: ['prov'] });
    assert.equal(attached.status, 200, attached.text);
    latest = (await server.get<Snapshot>('/api/v2/snapshots/acme/prod/-1')).body;
    assert.equal(latest.index, 2, 'attaching makes a new snapshot');
    assert.equal(latest.compliant, false, 'an artifact without provenance fails provenance.required');
    assert.equal(latest.artifacts[0].compliant, false);
    assert.equal(latest.artifacts[0].policy_decisions?.[0].status, 'NON-COMPLIANT');
    assert.equal(latest.artifacts[0].policy_decisions?.[0].rule_evaluations[0].rule.type, 'provenance');
    assert.ok((latest.artifacts[0].reasons_for_incompliance?.length ?? 0) > 0);
    assert.deepEqual(
      latest.applied_policies?.map((p) => [p.name, p.version, p.failing_artifacts]),
      [['prov', 2, [fp('a')]]],
    );
    assert.equal(valueAt(latest.applied_policies?.[0].policy_dump, 'artifacts', 'provenance', 'required'), true);
    assert.deepEqual(latest.artifact_compliance_count, { true: 0, false: 1, null: 0 });
    const env = (await server.get<Environment>('/api/v2/environments/acme/prod')).body;
    assert.deepEqual(env.policies, ['prov']);
    assert.equal(env.state, false);
    assert.deepEqual((await server.get<Policy>('/api/v2/policies/acme/prov')).body.consuming_envs, ['prod']);
    const changed = (await server.get<EnvironmentEvent[]>('/api/v2/environments/acme/prod/events')).body;
    assert.equal(changed[0].type, 'changed');
    assert.match(changed[0].description ?? '', /not evaluated to non-compliant/);

    assert.equal(
      (await server.json('POST', '/api/v2/environments/acme/prod/policies', { policy_names: ['prov'] })).status,
      200,
    );
    assert.equal(
      (await server.get<Snapshot>('/api/v2/snapshots/acme/prod/-1')).body.index,
      2,
      'attaching again changes nothing',
    );

    await server.json('DELETE', '/api/v2/environments/acme/prod/policies', { policy_names: ['prov'] });
    await server.json('POST', '/api/v2/environments/acme/prod/policies', { policy_names: ['lenient'] });
    latest = (await server.get<Snapshot>('/api/v2/snapshots/acme/prod/-1')).body;
    assert.equal(latest.index, 4);
    assert.equal(latest.compliant, true, 'a policy that requires nothing passes');
    assert.equal((await server.get<Environment>('/api/v2/environments/acme/prod')).body.state, true);
    const history = (await server.get<Policy>('/api/v2/policies/acme/prov')).body.events.map(
      (e: { type: string }) => e.type,
    );
    assert.deepEqual(history.slice(-2), ['policy_attached', 'policy_detached']);

    const unknown = await server.json('POST', '/api/v2/environments/acme/prod/policies', { policy_names: ['nope'] });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Policy 'nope' does not exist in organization 'acme'" });
    const noEnv = await server.json('POST', '/api/v2/environments/acme/nope/policies', { policy_names: ['prov'] });
    assert.equal(noEnv.status, 404);
  });

  it('attaches through the environment create and PATCH payloads', async () => {
    const created = await server.json('PUT', '/api/v2/environments/acme', {
      name: 'with-policy',
      type: 'K8S',
      description: 'w',
      policies: ['prov'],
    });
    assert.equal(created.status, 201);
    assert.deepEqual((await server.get<Environment>('/api/v2/environments/acme/with-policy')).body.policies, ['prov']);
    await server.json('PATCH', '/api/v2/environments/acme/with-policy', { policies: ['lenient'] });
    assert.deepEqual((await server.get<Environment>('/api/v2/environments/acme/with-policy')).body.policies, [
      'lenient',
    ]);
  });

  it('answers assert-artifact 404 for a fingerprint attested nowhere', async () => {
    const reply = await server.get(`/api/v2/asserts/acme/fingerprint/${fp('9')}`);
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, {
      message: `Artifact with fingerprint '${fp('9')}' does not exist in organization 'acme'`,
    });
    const inFlow = await server.get(`/api/v2/asserts/acme/fingerprint/${fp('9')}?flow_name=web`);
    assert.deepEqual(inFlow.body, {
      message: `Artifact with fingerprint '${fp('9')}' does not exist in flow 'web' belonging to organization 'acme'`,
    });
  });
});
