// The extension's API client against the real built server (test/api/harness.ts).
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { ApiClient } from '../../../shared/apiClient/client.ts';
import { ApiError } from '../../../shared/apiClient/errors.ts';
import { environmentsSource } from '../../../client/tree/environmentsSource.ts';
import { flowsSource } from '../../../client/tree/flowsSource.ts';
import { startServer, type TestServer } from '../../api/harness.ts';

const fingerprint = 'c'.repeat(64);
const template = ['version: 1', 'trail:', '  attestations:', '    - name: quality', '      type: scan', ''].join('\n');
const policy = [
  '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1',
  'artifacts:',
  '  provenance:',
  '    required: true',
  '',
].join('\n');
const scan = (gate: string) => ({
  attestation_name: 'quality',
  scan_results: {
    analysedAt: '2026-01-01T00:00:00Z',
    revision: 'd'.repeat(40),
    project: { key: 'shop', url: 'http://scan.example.test/shop' },
    qualityGate: { status: gate, conditions: [] },
  },
});

describe('API client against the local server', function () {
  let server: TestServer;
  let api: ApiClient;

  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    api = new ApiClient({ baseUrl: `${server.url}/api/v2`, org: 'acme', token: () => Promise.resolve(server.key) });
  });

  after(async () => {
    await server.stop();
  });

  it('answers readiness', async () => {
    assert.equal(await api.isReady(), true);
  });

  it('creates a flow from a template with 201, then updates it with 200', async () => {
    const file = { name: 'shop.flow-template.yml', bytes: new TextEncoder().encode(template) };
    assert.deepEqual(await api.putFlowTemplate('shop', 'The shop', file), { created: true });
    assert.deepEqual(await api.putFlowTemplate('shop', 'The shop', file), { created: false });
    assert.deepEqual(
      (await api.listFlows()).map((flow) => flow.name),
      ['shop'],
    );
  });

  it('carries the server message and field errors of a rejected template', async () => {
    const bad = { name: 'bad.yml', bytes: new TextEncoder().encode('version: 2\n') };
    await assert.rejects(api.putFlowTemplate('bad', '', bad), (error: ApiError) => {
      assert.equal(error.status, 400);
      assert.equal(error.message, 'Input payload validation failed');
      assert.ok(Object.keys(error.errors).length > 0);
      assert.match(error.detail, /^Input payload validation failed: \S+: /);
      return true;
    });
  });

  it('begins trails and pages through them', async () => {
    for (const name of ['t1', 't2', 't3']) assert.deepEqual(await api.beginTrail('shop', name), { created: true });
    assert.deepEqual(await api.beginTrail('shop', 't1', 'again'), { created: false });
    const first = await api.listTrails('shop', 1, 2);
    assert.equal(first.data.length, 2);
    assert.deepEqual(first.pagination, { total: 3, page: 1, per_page: 2, page_count: 2 });
    const second = await api.listTrails('shop', 2, 2);
    assert.equal(second.data.length, 1);
  });

  it('attests a scan result (with an attachment) and the trail reflects the verdict', async () => {
    const before = await api.getTrail('shop', 't1');
    assert.equal(before.compliance_state, 'INCOMPLETE');
    assert.deepEqual(
      await api.attestScan('shop', 't1', scan('OK'), {
        name: 'report.txt',
        bytes: new TextEncoder().encode('all good'),
      }),
      { created: true },
    );
    const after = await api.getTrail('shop', 't1');
    assert.equal(after.compliance_state, 'COMPLIANT');
    await api.attestScan('shop', 't2', scan('ERROR'));
    assert.equal((await api.getTrail('shop', 't2')).compliance_state, 'NON-COMPLIANT');
  });

  it('reports 404 with the server message for a missing trail', async () => {
    await assert.rejects(
      api.attestScan('shop', 'nope', scan('OK')),
      (error: ApiError) => error.status === 404 && error.message.length > 0,
    );
    await assert.rejects(
      api.getTrail('shop', 'nope'),
      (error: ApiError) =>
        error.message === "Trail with name 'nope' does not exist for Organization 'acme' and Flow 'shop'",
    );
  });

  it('refuses a wrong key with 401 and the server message', async () => {
    const stranger = new ApiClient({ baseUrl: `${server.url}/api/v2`, org: 'acme', token: () => 'wrong-key' });
    await assert.rejects(
      stranger.listFlows(),
      (error: ApiError) => error.status === 401 && error.message.length > 0 && !error.unreachable,
    );
  });

  it('creates and reports a K8S environment, then reads snapshots and the audit log', async () => {
    await api.createEnvironment('prod', 'K8S', 'Production');
    const environments = await api.listEnvironments();
    assert.deepEqual(
      environments.map((environment) => [environment.name, environment.type]),
      [['prod', 'K8S']],
    );
    const report = {
      artifacts: [
        {
          creationTimestamp: 1700000000,
          digests: { 'registry/shop:1': fingerprint },
          namespace: 'default',
          podName: 'shop-1',
        },
      ],
    };
    await api.reportK8s('prod', report);
    const snapshots = await api.listSnapshots('prod', 1, 15);
    assert.equal(snapshots.length, 1);
    const snapshot = await api.getSnapshot('prod', snapshots[0].index);
    assert.deepEqual(
      snapshot.artifacts?.map((artifact) => [artifact.name, artifact.annotation?.type]),
      [['registry/shop:1', 'started']],
    );
    const csv = await api.auditLog('prod');
    assert.match(csv.split('\n')[0], /,/);
    assert.match(csv, /registry\/shop:1|c{12}/);
  });

  it('explains a K8S report the server rejects', async () => {
    await assert.rejects(
      api.reportK8s('prod', { artifacts: [{ podName: 1 }] }),
      (error: ApiError) => error.message === 'Invalid report data' && Object.keys(error.errors).length > 0,
    );
    await assert.rejects(
      api.reportK8s('nowhere', { artifacts: [] }),
      (error: ApiError) => error.message === 'Environment not found',
    );
  });

  it('finds an artifact by fingerprint prefix or commit, with the flow and trail to reveal', async () => {
    const commit = 'e'.repeat(40);
    const attested = await server.json('POST', '/api/v2/artifacts/acme/shop', {
      fingerprint,
      filename: 'shop.tgz',
      git_commit: commit,
      build_url: 'http://ci.example.test/1',
      commit_url: 'http://git.example.test/c',
      trail_name: 't3',
      template_reference_name: 'shop',
    });
    assert.ok([200, 201].includes(attested.status), attested.text);
    for (const value of [fingerprint.slice(0, 8), commit]) {
      const result = await api.search(value);
      assert.deepEqual(
        result.artifacts.map((artifact) => [artifact.fingerprint, artifact.flow, artifact.trail]),
        [[fingerprint, 'shop', 't3']],
      );
    }
  });

  it('says no match for a search that finds nothing', async () => {
    await assert.rejects(
      api.search('abcdef'),
      (error: ApiError) => error.status === 404 && error.message === "No matches for 'abcdef'.",
    );
  });

  it('builds the Flows view from what the server answers: flow → trails → attestations with compliance', async () => {
    const flows = await flowsSource.roots(api);
    const shop = flows.find((node) => node.label === 'shop')!;
    assert.ok(shop, 'the shop flow is a root row');
    const trails = await flowsSource.children(api, shop);
    assert.deepEqual(
      trails
        .filter((node) => node.kind === 'trail')
        .map((node) => [node.label, node.compliance])
        .sort(),
      [
        ['t1', 'COMPLIANT'],
        ['t2', 'NON-COMPLIANT'],
        ['t3', 'INCOMPLETE'],
      ],
    );
    const t3 = trails.find((node) => node.label === 't3')!;
    assert.deepEqual(t3.children?.find((node) => node.label === 'quality')?.compliance, 'MISSING');
    assert.ok(
      t3.children?.some((node) => node.kind === 'artifact' && node.ref.fingerprint === fingerprint),
      'the attested artifact is a row of its trail',
    );
    const reloaded = await flowsSource.reload!(
      api,
      trails.find((node) => node.label === 't1')!,
    );
    assert.equal(reloaded?.children?.find((node) => node.label === 'quality')?.compliance, 'COMPLIANT');
  });

  it('builds the Environments view: environment → snapshot → running artifact with provenance', async () => {
    const [prod] = await environmentsSource.roots(api);
    assert.equal(prod?.label, 'prod');
    const snapshots = await environmentsSource.children(api, prod);
    assert.equal(snapshots[0]?.kind, 'snapshot');
    const artifacts = await environmentsSource.children(api, snapshots[0]);
    assert.equal(artifacts[0]?.label, 'registry/shop:1');
    // Reported before any flow attested the fingerprint.
    assert.equal(artifacts[0]?.description, 'started · 1× · no provenance');
  });

  it('asks the preview operations: what a template would do to the trails, what a policy would say of a snapshot', async () => {
    const withRisk = `${template}    - name: risk\n      type: generic\n`;
    const impact = await api.templateImpact('shop', withRisk, 10);
    assert.equal(impact.flow, 'shop');
    assert.equal(impact.trails, 3);
    const t1 = impact.changed.find((trail) => trail.trail === 't1');
    assert.deepEqual([t1?.before, t1?.after], ['COMPLIANT', 'INCOMPLETE']);
    await assert.rejects(
      api.templateImpact('shop', 'version: 2\n', 10),
      (error: ApiError) => error.status === 400 && Object.keys(error.errors).length > 0,
    );
    const run = await api.policyDryRun('prod', policy, 10);
    assert.equal(run.environment, 'prod');
    assert.deepEqual(
      run.artifacts.map((artifact) => artifact.name),
      ['registry/shop:1'],
    );
    await assert.rejects(api.policyDryRun('nowhere', policy, 10), (error: ApiError) => error.status === 404);
  });

  it('gives up on a server that does not answer in time, and a request its caller cancels rejects with the reason', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/v2`;
    try {
      const impatient = new ApiClient({ baseUrl, org: 'acme', token: () => 'k', timeoutMs: 200 });
      await assert.rejects(
        impatient.listFlows(),
        (error: ApiError) => error.unreachable && error.message.endsWith('no answer in time'),
      );
      // Bounded by the 60 s timeout only if cancelling did nothing: the test's own timeout fails first.
      const patient = new ApiClient({ baseUrl, org: 'acme', token: () => 'k', timeoutMs: 60_000 });
      const controller = new AbortController();
      const reached = new Promise((resolve) => silent.once('connection', resolve));
      const asked = patient.templateImpact('shop', template, 10, controller.signal);
      await reached;
      const superseded = new Error('superseded');
      controller.abort(superseded);
      await assert.rejects(asked, (error) => error === superseded);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
