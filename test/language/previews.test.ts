// The preview lenses of the built language server (over stdio) against the real API server: a
// template's impact on the flow's trails, a policy's dry-run per attached environment, the rule
// hover, "fix N errors first", superseded texts, and the quiet "not connected" lens for a server
// that is absent, unreachable or too slow.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startServer, type TestServer } from '../api/harness.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint } from '../api/fixtures.ts';
import { startClient, type LspClient } from './lspClient.ts';
import { serverAccessNotification, type PreviewList } from '../../shared/protocol.ts';
import { waitFor } from '../support/wait.ts';

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
const WITH_RISK = TEMPLATE.replace('  artifacts:', '    - name: risk\n      type: generic\n  artifacts:');
const POLICY = [
  '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1',
  'artifacts:',
  '  provenance:',
  '    required: true',
  '  attestations:',
  '    - name: unit-test',
  '      type: generic',
  '',
].join('\n');
const APP = fingerprint('lens-app');
const STRAY = fingerprint('lens-stray');
const TEMPLATE_URI = 'file:///w/backend.flow-template.yaml';
const POLICY_URI = 'file:///w/prod-rules.env-policy.yaml';

interface Lens {
  range: { start: { line: number } };
  command: { title: string; command: string; arguments?: unknown[] };
}

function isPreviewList(value: unknown): value is PreviewList {
  return (
    typeof value === 'object' && value !== null && 'title' in value && 'items' in value && Array.isArray(value.items)
  );
}

/** The list a lens opens: the one argument of its command. */
function listOf(lens: Lens): PreviewList {
  const list = lens.command.arguments?.[0];
  assert.ok(isPreviewList(list), `the lens '${lens.command.title}' opens no list`);
  return list;
}

/** Capabilities of an editor that takes lens refresh requests. */
const CAPABILITIES = {
  workspace: { configuration: false, codeLens: { refreshSupport: true } },
  textDocument: { codeLens: {}, hover: { contentFormat: ['markdown', 'plaintext'] } },
};

async function lensesUntil(
  client: LspClient,
  uri: string,
  accept: (titles: string[]) => boolean,
  what: string,
): Promise<Lens[]> {
  let titles: string[] = [];
  const lensesAccepted = async (): Promise<Lens[] | undefined> => {
    const lenses = (await client.request<Lens[] | null>('textDocument/codeLens', { textDocument: { uri } })) ?? [];
    titles = lenses.map((lens) => lens.command.title);
    return accept(titles) ? lenses : undefined;
  };
  return await waitFor(lensesAccepted, `lenses ${what}`).catch((error: Error) => {
    throw new Error(`${error.message}; last: ${JSON.stringify(titles)}`);
  });
}

const settled = (titles: string[]) => titles.length > 0 && titles.every((title) => !title.endsWith('evaluating…'));

describe('language server: preview lenses against the real API server', function () {
  this.timeout(60_000);
  let server: TestServer;
  let client: LspClient;
  const shown: unknown[] = [];
  let refreshes = 0;

  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'backend', TEMPLATE);
    for (const name of ['compliant', 'incomplete', 'non-compliant']) await beginTrail(server, 'acme', 'backend', name);
    await attest(server, 'acme', 'backend', 'compliant', 'generic', { attestation_name: 'jira' });
    await attestArtifact(server, 'acme', 'backend', {
      fingerprint: APP,
      filename: 'app',
      git_commit: commit('lens'),
      trail_name: 'compliant',
      template_reference_name: 'app',
    });
    await attest(server, 'acme', 'backend', 'compliant', 'generic', {
      attestation_name: 'unit-test',
      artifact_fingerprint: APP,
    });
    await attest(server, 'acme', 'backend', 'incomplete', 'generic', { attestation_name: 'jira' });
    await attest(server, 'acme', 'backend', 'non-compliant', 'generic', {
      attestation_name: 'jira',
      is_compliant: false,
    });
    assert.equal(
      (await server.json('PUT', '/api/v2/environments/acme', { name: 'prod', type: 'K8S', description: 'production' }))
        .status,
      201,
    );
    assert.equal(
      (
        await server.json('PUT', '/api/v2/environments/acme', {
          name: 'staging',
          type: 'K8S',
          description: 'not attached',
        })
      ).status,
      201,
    );
    const pods = [APP, STRAY].map((digest, index) => ({
      podName: `pod-${index}`,
      namespace: 'prod',
      creationTimestamp: 1700000000,
      digests: { [`reg/app-${index}:1`]: digest },
      owners: [],
    }));
    for (const env of ['prod', 'staging'])
      assert.ok(
        [200, 201].includes(
          (await server.json('PUT', `/api/v2/environments/acme/${env}/report/K8S`, { artifacts: pods })).status,
        ),
      );
    const created = await server.multipart('PUT', '/api/v2/policies/acme', {
      payload: JSON.stringify({ name: 'prod-rules', type: 'env' }),
      policy_file: { filename: 'p.yml', content: POLICY },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(
      (await server.json('POST', '/api/v2/environments/acme/prod/policies', { policy_names: ['prod-rules'] })).status,
      200,
    );

    client = startClient();
    client.connection.onRequest('workspace/codeLens/refresh', () => {
      refreshes += 1;
      return null;
    });
    client.connection.onNotification('window/showMessage', (message: unknown) => {
      shown.push(message);
    });
    client.connection.onRequest('window/showMessageRequest', (message: unknown) => {
      shown.push(message);
      return null;
    });
    const initialized = await client.initialize(
      { complianceEvidence: { diagnostics: { debounceMs: 0 } } },
      CAPABILITIES,
    );
    assert.deepEqual(initialized.capabilities.codeLensProvider, { resolveProvider: false });
    await client.connection.sendNotification(serverAccessNotification, {
      apiBase: `${server.url}/api/v2`,
      org: 'acme',
      key: server.key,
    });
  });
  after(async () => {
    await client?.stop();
    await server?.stop();
  });

  it('says what an edited template does to the trails, and lists the changed ones with their slots', async () => {
    const before = refreshes;
    client.open(TEMPLATE_URI, 'yaml', WITH_RISK);
    const [lens] = await lensesUntil(client, TEMPLATE_URI, settled, 'for the template');
    assert.equal(
      lens.command.title,
      'flow backend · 3 trails: 1 stays INCOMPLETE, 1 becomes INCOMPLETE, 1 stays NON-COMPLIANT',
    );
    assert.equal(lens.range.start.line, 0);
    assert.equal(lens.command.command, 'complianceEvidence.showPreviewList');
    const list = listOf(lens);
    assert.equal(list.title, 'Flow backend: trails this template changes');
    const compliant = list.items.find((item) => item.label === 'compliant');
    assert.deepEqual(compliant, {
      label: 'compliant',
      description: 'COMPLIANT → INCOMPLETE',
      detail: 'risk: — → MISSING',
    });
    assert.ok(refreshes > before, 'the editor was asked to refresh its lenses when the answer arrived');
  });

  it('shows "fix N errors first" for a template with errors, never a verdict', async () => {
    client.change(TEMPLATE_URI, 2, WITH_RISK.replace('type: generic', 'type: no-such-type').concat('bogus: 1\n'));
    const lenses = await lensesUntil(
      client,
      TEMPLATE_URI,
      (titles) => titles[0]?.includes('first') === true,
      'with errors',
    );
    assert.equal(lenses.length, 1);
    assert.match(lenses[0].command.title, /^flow backend · fix \d+ errors? first$/);
    assert.equal(lenses[0].command.command, '');
  });

  it('answers the latest text of a burst of edits: earlier questions are superseded', async () => {
    for (let version = 3; version < 13; version++)
      client.change(TEMPLATE_URI, version, version % 2 === 0 ? TEMPLATE : WITH_RISK);
    client.change(TEMPLATE_URI, 13, TEMPLATE);
    const [lens] = await lensesUntil(client, TEMPLATE_URI, settled, 'after the burst');
    assert.equal(
      lens.command.title,
      'flow backend · 3 trails: 1 stays COMPLIANT, 1 stays INCOMPLETE, 1 stays NON-COMPLIANT',
    );
    assert.deepEqual(listOf(lens).items, []);
  });

  it('dry-runs a policy on each environment it is attached to, with a lens to pick any other', async () => {
    client.open(POLICY_URI, 'yaml', POLICY);
    const lenses = await lensesUntil(client, POLICY_URI, settled, 'for the policy');
    assert.deepEqual(
      lenses.map((lens) => lens.command.title),
      ['prod · latest snapshot: 1 compliant, 1 would be non-compliant', 'dry-run policy prod-rules on an environment…'],
    );
    const list = listOf(lenses[0]);
    assert.equal(list.items[0].label, 'reg/app-1:1');
    assert.equal(list.items[0].description, 'would be non-compliant');
    assert.match(list.items[0].detail ?? '', /no provenance/);
    assert.deepEqual(lenses[1].command, {
      title: 'dry-run policy prod-rules on an environment…',
      command: 'complianceEvidence.policyDryRun',
      arguments: [POLICY_URI],
    });

    const environments = await client.request<{ environments: string[] }>('complianceEvidence/environments', {});
    assert.deepEqual(environments.environments.sort(), ['prod', 'staging']);
    const staging = await client.request<{ title: string; items: Array<{ label: string }> }>(
      'complianceEvidence/policyDryRun',
      { uri: POLICY_URI, environment: 'staging' },
    );
    assert.match(staging.title, /^staging: dry-run of policy prod-rules/);
    assert.equal(staging.items.length, 2);
  });

  it('tells on a hover which artifacts a rule fails and why', async () => {
    const ruleLine = POLICY.split('\n').indexOf('    - name: unit-test');
    const hover = await client.request<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: POLICY_URI },
      position: { line: ruleLine, character: 12 },
    });
    assert.ok(hover, 'a hover on the rule');
    assert.match(hover.contents.value, /Dry-run:\*\* this rule fails 1 artifact/);
    assert.match(hover.contents.value, /prod: reg\/app-1:1 — attestation 'unit-test' of type 'generic' is missing/);
    const provenanceLine = POLICY.split('\n').indexOf('  provenance:');
    const provenance = await client.request<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: POLICY_URI },
      position: { line: provenanceLine + 1, character: 6 },
    });
    assert.match(provenance!.contents.value, /no provenance/);
    const schemaLine = 0;
    const other = await client.request<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: POLICY_URI },
      position: { line: schemaLine, character: 2 },
    });
    assert.doesNotMatch(other?.contents.value ?? '', /Dry-run/);
  });

  it('shows a quiet "not connected" lens when the server is gone, unreachable or too slow, and no notification', async () => {
    const silent: Socket[] = [];
    const slow: Server = createServer((socket) => silent.push(socket));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    // Unreachable: every connection reset at once, on a port this test keeps (a closed port could be
    // taken by another process before the lens asks it).
    const refusing: Server = createServer((socket) => socket.resetAndDestroy());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      for (const apiBase of [
        `http://127.0.0.1:${(slow.address() as AddressInfo).port}/api/v2`,
        `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/api/v2`,
      ]) {
        await client.connection.sendNotification(serverAccessNotification, {
          apiBase,
          org: 'acme',
          key: 'k',
          timeoutMs: 300,
        });
        const [lens] = await lensesUntil(client, TEMPLATE_URI, settled, `from ${apiBase}`);
        assert.equal(lens.command.title, 'flow backend · not connected');
        const policy = await lensesUntil(client, POLICY_URI, settled, `policy from ${apiBase}`);
        assert.deepEqual(
          policy.map((lens) => lens.command.title),
          ['policy prod-rules · not connected'],
        );
      }
      await client.connection.sendNotification(serverAccessNotification, null);
      const [none] = await lensesUntil(client, TEMPLATE_URI, settled, 'without a server');
      assert.equal(none.command.title, 'flow backend · not connected');
      assert.deepEqual(shown, [], 'no notification, no message box');
      assert.ok(!client.logs.some((log) => log.message.includes(server.key)), 'the key is never logged');
    } finally {
      for (const socket of silent) socket.destroy();
      await new Promise((resolve) => slow.close(resolve));
      await new Promise((resolve) => refusing.close(resolve));
      await client.connection.sendNotification(serverAccessNotification, {
        apiBase: `${server.url}/api/v2`,
        org: 'acme',
        key: server.key,
      });
    }
  });

  it('names the file to preview when the template is named for no flow, and says when the flow is not on the server', async () => {
    const untitled = 'file:///w/flow-template.yaml';
    client.open(untitled, 'yaml', TEMPLATE);
    assert.equal(
      (await lensesUntil(client, untitled, settled, 'for an unnamed template'))[0].command.title,
      'impact preview · name the file <flow>.flow-template.yml',
    );
    const unknown = 'file:///w/frontend.flow-template.yaml';
    client.open(unknown, 'yaml', TEMPLATE);
    assert.equal(
      (await lensesUntil(client, unknown, settled, 'for an unknown flow'))[0].command.title,
      'flow frontend · not on the server yet',
    );
  });
});
