// The project's read-only previews on the real server: a flow template's impact on the flow's
// trails and a policy's dry-run on an environment's latest snapshot. Same access as reading,
// errors as the spec's bodies, and nothing stored.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ErrorBody,
  OpenApiDocument,
  Page,
  PolicyDryRun,
  SnapshotSummary,
  TemplateImpact,
  Trail,
} from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, commit, createEnvironment, createFlow, fingerprint } from './fixtures.ts';

const TEMPLATE = [
  'version: 1',
  'trail:',
  '  attestations:',
  '    - name: jira',
  '      type: generic',
  '  artifacts:',
  '    - name: app',
  '      attestations:',
  '        - name: unit-test',
  '          type: generic',
  '',
].join('\n');
/** TEMPLATE plus a trail-level `risk` slot nobody has filled yet. */
const WITH_RISK = TEMPLATE.replace('  artifacts:', '    - name: risk\n      type: generic\n  artifacts:');
const POLICY_HEAD = '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1\nartifacts:\n';
const PROVENANCE = `${POLICY_HEAD}  provenance:\n    required: true\n`;
const UNIT_TESTS = `${POLICY_HEAD}  attestations:\n    - name: unit-test\n      type: generic\n`;
const APP = fingerprint('app-built');
const STRAY = fingerprint('stray');
const READER = 'reader-key-0001';
const OUTSIDER = 'other-key-00001';

describe('previews (project extension): template impact and policy dry-run', () => {
  let server: TestServer;
  const impact = <T = TemplateImpact>(flow: string, template: unknown, key?: string, query = '') =>
    server.json<T>(
      'POST',
      `/api/v2/flows/acme/${flow}/template-impact${query}`,
      { template },
      key === undefined ? {} : { key },
    );
  const dryRun = <T = PolicyDryRun>(env: string, policy: unknown, key?: string) =>
    server.json<T>(
      'POST',
      `/api/v2/environments/acme/${env}/policy-dry-run`,
      { policy },
      key === undefined ? {} : { key },
    );

  before(async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'cev-preview-')), 'cev.yaml');
    writeFileSync(
      config,
      [
        'orgs: [{name: acme}, {name: other}]',
        'api_keys:',
        `  - {key: ${READER}, orgs: [acme], role: reader}`,
        `  - {key: ${OUTSIDER}, orgs: [other], role: admin}`,
      ].join('\n'),
    );
    server = await startServer({ args: ['--config', config] });
    await createFlow(server, 'acme', 'backend', TEMPLATE);
    // compliant: jira and the app's unit tests; incomplete: jira only; non-compliant: a failed jira.
    for (const name of ['compliant', 'incomplete', 'non-compliant']) await beginTrail(server, 'acme', 'backend', name);
    assert.equal(
      (await attest(server, 'acme', 'backend', 'compliant', 'generic', { attestation_name: 'jira' })).status,
      201,
    );
    await attestArtifact(server, 'acme', 'backend', {
      fingerprint: APP,
      filename: 'app',
      git_commit: commit('app'),
      trail_name: 'compliant',
      template_reference_name: 'app',
    });
    assert.equal(
      (
        await attest(server, 'acme', 'backend', 'compliant', 'generic', {
          attestation_name: 'unit-test',
          artifact_fingerprint: APP,
        })
      ).status,
      201,
    );
    assert.equal(
      (await attest(server, 'acme', 'backend', 'incomplete', 'generic', { attestation_name: 'jira' })).status,
      201,
    );
    assert.equal(
      (
        await attest(server, 'acme', 'backend', 'non-compliant', 'generic', {
          attestation_name: 'jira',
          is_compliant: false,
        })
      ).status,
      201,
    );

    assert.equal(
      (await server.json('PUT', '/api/v2/environments/acme', { name: 'prod', type: 'K8S', description: 'production' }))
        .status,
      201,
    );
    await createEnvironment(server, 'acme', 'empty', 'K8S', 'no report yet');
    const pods = [APP, STRAY].map((digest, index) => ({
      podName: `pod-${index}`,
      namespace: 'prod',
      creationTimestamp: 1700000000,
      digests: { [`reg/app-${index}:1`]: digest },
      owners: [],
    }));
    assert.ok(
      [200, 201].includes(
        (await server.json('PUT', '/api/v2/environments/acme/prod/report/K8S', { artifacts: pods })).status,
      ),
    );
  });
  after(async () => {
    await server?.stop();
  });

  it('evaluates an edited template against every trail of the flow: verdict transitions and the slots that change', async () => {
    const reply = await impact('backend', WITH_RISK);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.flow, 'backend');
    assert.equal(reply.body.trails, 3);
    const transitions = Object.fromEntries(
      reply.body.transitions.map((t: { before: string; after: string; count: number }) => [
        `${t.before}>${t.after}`,
        t.count,
      ]),
    );
    assert.deepEqual(transitions, {
      'COMPLIANT>INCOMPLETE': 1,
      'INCOMPLETE>INCOMPLETE': 1,
      'NON-COMPLIANT>NON-COMPLIANT': 1,
    });
    assert.equal(reply.body.changed_total, 3, 'every trail gains the missing risk slot');
    const compliant = reply.body.changed.find((trail: { trail: string }) => trail.trail === 'compliant');
    assert.deepEqual(compliant, {
      trail: 'compliant',
      before: 'COMPLIANT',
      after: 'INCOMPLETE',
      changed_slots: [{ artifact: null, attestation: 'risk', before: null, after: 'MISSING' }],
      changed_slots_total: 1,
    });
  });

  it('says a trail stays as it is when the edited template is the one it was begun with, and shows reports that fall outside a smaller template', async () => {
    const same = (await impact('backend', TEMPLATE)).body;
    assert.equal(same.changed_total, 0);
    assert.deepEqual(same.changed, []);
    const withoutJira = (await impact('backend', 'version: 1\ntrail:\n  artifacts:\n    - name: app\n')).body;
    const failing = withoutJira.changed.find((trail: { trail: string }) => trail.trail === 'non-compliant');
    assert.equal(failing?.after, 'NON-COMPLIANT', 'an unexpected failed report still counts');
    assert.deepEqual(failing?.changed_slots[0], {
      artifact: null,
      attestation: 'jira',
      before: 'NON-COMPLIANT',
      after: 'NON-COMPLIANT (unexpected)',
    });
  });

  it('lists at most `limit` changed trails while the counts cover all of them', async () => {
    const reply = await impact('backend', WITH_RISK, undefined, '?limit=1');
    assert.equal(reply.status, 200);
    assert.equal(reply.body.changed.length, 1);
    assert.equal(reply.body.changed_total, 3);
    assert.equal((await impact('backend', WITH_RISK, undefined, '?limit=100000')).status, 400);
  });

  it('evaluates every trail of a flow larger than one page of the store, each once, newest first', async function () {
    // A thousand trails begun through the API: seconds on SQLite, longer on a loaded PostgreSQL.
    this.timeout(120_000);
    await createFlow(server, 'acme', 'many', TEMPLATE);
    const count = 1001;
    for (let start = 0; start < count; start += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, count - start) }, (_, index) =>
          beginTrail(server, 'acme', 'many', `t-${String(start + index).padStart(4, '0')}`),
        ),
      );
    }
    const reply = await impact('many', WITH_RISK, undefined, '?limit=1000');
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.trails, count);
    assert.deepEqual(reply.body.transitions, [{ before: 'INCOMPLETE', after: 'INCOMPLETE', count }]);
    assert.equal(reply.body.changed_total, count);
    const names = reply.body.changed.map((trail: { trail: string }) => trail.trail);
    assert.equal(new Set(names).size, 1000, 'no trail twice');
    const listed = (await server.get<Page<Trail>>('/api/v2/trails/acme/many?page=1&per_page=5')).body.data.map(
      (trail: { name: string }) => trail.name,
    );
    assert.deepEqual(names.slice(0, 5), listed, 'in the order of the trail list');
  });

  it('keeps answering when askers go away mid-question, and logs nothing', async () => {
    for (const delayMs of [0, 5, 10, 20, 40]) {
      const asked = new AbortController();
      const pending = fetch(`${server.url}/api/v2/flows/acme/many/template-impact`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ template: WITH_RISK }),
        signal: asked.signal,
      });
      setTimeout(() => asked.abort(), delayMs);
      await pending.then((response) => response.text()).catch(() => undefined);
    }
    const reply = await impact('many', WITH_RISK);
    assert.equal(reply.status, 200);
    assert.doesNotMatch(server.output(), /Error/);
  });

  it('answers a template with errors with the field errors and no verdict', async () => {
    const reply = await impact<ErrorBody>(
      'backend',
      'version: 1\ntrail:\n  attestations:\n    - name: jira\n      type: no-such-type\n    - type: generic\n',
    );
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body.message, 'Input payload validation failed');
    assert.ok(Object.keys(reply.body.errors ?? {}).length >= 2, reply.text);
    assert.equal('trails' in reply.body, false);
    for (const body of [{}, { template: 3 }, null]) {
      const bad = await server.json('POST', '/api/v2/flows/acme/backend/template-impact', body);
      assert.equal(bad.status, 400, `${JSON.stringify(body)}: ${bad.text}`);
    }
  });

  it('stores nothing: the flow and its trails read the same afterwards', async () => {
    const flowBefore = (await server.get('/api/v2/flows/acme/backend')).text;
    const trailsBefore = (await server.get('/api/v2/trails/acme/backend')).text;
    await impact('backend', WITH_RISK);
    await dryRun('prod', PROVENANCE);
    assert.equal((await server.get('/api/v2/flows/acme/backend')).text, flowBefore);
    assert.equal((await server.get('/api/v2/trails/acme/backend')).text, trailsBefore);
    assert.equal((await server.get<SnapshotSummary[]>('/api/v2/snapshots/acme/prod')).body.length, 1);
  });

  it('takes the access of reading trails: a reader may, another org may not, nobody without a key', async () => {
    assert.equal((await impact('backend', TEMPLATE, READER)).status, 200);
    assert.equal((await dryRun('prod', PROVENANCE, READER)).status, 200);
    assert.equal((await impact('backend', TEMPLATE, OUTSIDER)).status, 403);
    assert.equal((await dryRun('prod', PROVENANCE, OUTSIDER)).status, 403);
    assert.equal(
      (await server.json('POST', '/api/v2/flows/acme/backend/template-impact', { template: TEMPLATE }, { key: null }))
        .status,
      401,
    );
    const missing = await impact<ErrorBody>('nope', TEMPLATE);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, "Flow named 'nope' does not exist for organization 'acme'");
  });

  it("judges the latest snapshot's running artifacts under a policy text: which rule fails and why", async () => {
    const reply = await dryRun('prod', PROVENANCE);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.environment, 'prod');
    assert.equal(reply.body.snapshot_index, 1);
    assert.equal(reply.body.compliant, 1);
    assert.equal(reply.body.non_compliant, 1);
    const stray = reply.body.artifacts.find((artifact: { fingerprint: string }) => artifact.fingerprint === STRAY);
    assert.equal(stray?.compliant, false);
    assert.equal(stray?.recorded_compliant, null, 'no policy was attached when the snapshot was recorded');
    assert.deepEqual(stray?.failing_rules, [
      {
        path: ['artifacts', 'provenance'],
        type: 'provenance',
        reason: 'the artifact has no provenance (it was never attested to a flow)',
      },
    ]);
    const app = reply.body.artifacts.find((artifact: { fingerprint: string }) => artifact.fingerprint === APP);
    assert.deepEqual(app?.failing_rules, []);

    const rules = (await dryRun('prod', UNIT_TESTS)).body;
    const strayRule = rules.artifacts.find((artifact: { fingerprint: string }) => artifact.fingerprint === STRAY)
      ?.failing_rules[0];
    assert.deepEqual(strayRule?.path, ['artifacts', 'attestations', 0]);
    assert.match(strayRule?.reason ?? '', /attestation 'unit-test' of type 'generic' is missing/);
    assert.equal(rules.non_compliant, 1, 'the app carries its unit tests in its trail');
  });

  it('counts allowed artifacts compliant, answers an environment without snapshots empty, and refuses a policy with errors', async () => {
    const allow = await server.json('PUT', '/api/v2/allowlists/acme/prod', {
      artifact_fingerprint: STRAY,
      artifact_name: 'reg/app-1:1',
      description: 'hotfix',
    });
    assert.ok([200, 201].includes(allow.status), allow.text);
    const allowed = (await dryRun('prod', PROVENANCE)).body;
    assert.equal(allowed.non_compliant, 0);
    const stray = allowed.artifacts.find((artifact: { fingerprint: string }) => artifact.fingerprint === STRAY);
    assert.equal(stray?.allowed, true);
    assert.equal(stray?.failing_rules.length, 1, 'the rules still say what fails');

    assert.deepEqual((await dryRun('empty', PROVENANCE)).body, {
      environment: 'empty',
      snapshot_index: null,
      compliant: 0,
      non_compliant: 0,
      artifacts: [],
    });
    const bad = await dryRun<ErrorBody>('prod', `${POLICY_HEAD}  provenance:\n    required: maybe\n`);
    assert.equal(bad.status, 400, bad.text);
    assert.ok(
      bad.body.errors !== undefined && Object.keys(bad.body.errors).every((key) => key.startsWith('policy')),
      bad.text,
    );
    assert.equal((await dryRun('nowhere', PROVENANCE)).status, 404);
    // An invalid condition is stored by an upload (it fails at evaluation, as the service does),
    // but a dry-run refuses it: its verdict would only fail closed on it.
    const badCondition = `${UNIT_TESTS}      if: \${{ flow.name === }}\n`;
    const refused = await dryRun<ErrorBody>('prod', badCondition);
    assert.equal(refused.status, 400, refused.text);
    assert.ok(
      Object.keys(refused.body.errors ?? {}).some((key) => key.startsWith('policy.artifacts.attestations[0]')),
      refused.text,
    );
    const stored = await server.multipart('PUT', '/api/v2/policies/acme', {
      payload: JSON.stringify({ name: 'bad-condition', type: 'env' }),
      policy_file: { filename: 'p.yml', content: badCondition },
    });
    assert.equal(stored.status, 201, stored.text);
  });

  it('is documented in the OpenAPI document as a project extension', async () => {
    const document = (await server.get<OpenApiDocument>('/api/v2/openapi.json')).body;
    for (const [path, method] of [
      ['/flows/{org}/{flow}/template-impact', 'post'],
      ['/environments/{org}/{env}/policy-dry-run', 'post'],
    ] as const) {
      const operation = document.paths[path][method];
      assert.deepEqual(operation.tags, ['Project extension'], path);
      assert.match(operation.description ?? '', /Not part of the Compliance Evidence Service API v2/);
      assert.ok(operation.requestBody, `${path} documents its body`);
    }
    assert.ok(document.tags.some((tag: { name: string }) => tag.name === 'Project extension'));
  });
});
