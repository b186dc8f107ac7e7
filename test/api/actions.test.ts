// Actions and webhooks (reference §2.12, spec endpoint 9), and the scripted story of issue 4:
// create an environment, report (new artifact, scale only, timestamp only, artifact removed) and
// check snapshots, events, audit-log rows and the webhooks a loopback receiver gets.
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { Action, EnvironmentEvent, ErrorBody, SnapshotSummary } from './answers.ts';
import { parsedAs } from './contract.ts';
import { startServer, type TestServer } from './harness.ts';
import { WebhookReceiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';

const fp = (c: string): string => c.repeat(64);

const string = { type: 'string' } as const;
const nullableBoolean = { type: ['boolean', 'null'] } as const;
/**
 * What these tests read of a webhook payload (reference §2.12): every payload names its trigger,
 * event, org, action and time; the environment, artifact, flow, trail and attestation parts come
 * with the triggers that carry them.
 */
const webhookPayload = {
  type: 'object',
  properties: {
    trigger: string,
    event_type: string,
    org: string,
    timestamp: { type: 'number' },
    action: {
      type: 'object',
      properties: { name: string, number: { type: 'integer' } },
      required: ['name', 'number'],
    },
    environment: {
      type: 'object',
      properties: {
        name: string,
        type: string,
        snapshot_index: { type: 'integer' },
        snapshot_compliant: nullableBoolean,
      },
      required: ['name'],
    },
    artifact: {
      type: 'object',
      properties: { fingerprint: string, name: string, instances: { type: 'integer' }, compliant: nullableBoolean },
    },
    previous_compliant: { type: 'boolean' },
    flow: { type: 'object', properties: { name: string }, required: ['name'] },
    trail: { type: 'object', properties: { name: string, html_url: string }, required: ['name', 'html_url'] },
    attestation: {
      type: 'object',
      properties: { name: string, type: string, is_compliant: nullableBoolean },
      required: ['name'],
    },
  },
  required: ['trigger', 'event_type', 'org', 'action', 'timestamp'],
} as const;
type WebhookPayload = FromSchema<typeof webhookPayload>;

/** The payloads `receiver` got, each checked against what these tests read of a payload. */
const payloadsOf = (receiver: WebhookReceiver): WebhookPayload[] =>
  receiver.deliveries.map((delivery) => parsedAs<WebhookPayload>(webhookPayload, delivery.text));

function pods(spec: Array<[pod: string, digest: string, created?: number]>) {
  return {
    artifacts: spec.map(([podName, digest, created = 1700000000]) => ({
      podName,
      namespace: 'prod',
      creationTimestamp: created,
      digests: { [`reg/app-${digest[0]}:1`]: digest },
    })),
  };
}

describe('actions and webhooks', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let failing: WebhookReceiver;
  let backoff: string | undefined;
  before(async () => {
    backoff = process.env.CEV_WEBHOOK_BACKOFF_MS;
    process.env.CEV_WEBHOOK_BACKOFF_MS = '10';
    receiver = await WebhookReceiver.start();
    failing = await WebhookReceiver.start({ answer: 503 });
    // The receivers are on loopback, which webhooks reach only with the operator's flag.
    server = await startServer({ args: ['--org', 'acme', '--allow-private-webhooks'] });
    for (const name of ['story', 'quiet', 'broken']) {
      assert.equal(
        (await server.json('PUT', '/api/v2/environments/acme', { name, type: 'K8S', description: name })).status,
        201,
      );
    }
  });
  after(async () => {
    await server?.stop();
    if (backoff === undefined) delete process.env.CEV_WEBHOOK_BACKOFF_MS;
    else process.env.CEV_WEBHOOK_BACKOFF_MS = backoff;
    for (const r of [receiver, failing]) await r?.close();
  });

  it('creates (201), updates by name (200), lists, gets and deletes actions with every field of the spec', async () => {
    const created = await server.json<Action>('PUT', '/api/v2/actions/acme/environments', {
      name: 'story-hooks',
      targets: [
        { type: 'WEBHOOK', webhook: receiver.url() },
        { type: 'SLACK', channel: '#deploys' },
      ],
      environments: ['story'],
      triggers: [
        'ON_STARTED_ARTIFACT',
        'ON_EXITED_ARTIFACT',
        'ON_CHANGED_ARTIFACT',
        'ON_COMPLIANT_ENV',
        'ON_NON_COMPLIANT_ENV',
      ],
    });
    assert.equal(created.status, 201, created.text);
    const action = created.body;
    assert.deepEqual(Object.keys(action).sort(), [
      'created_at',
      'created_by',
      'environments',
      'flows',
      'is_created_from_slack_app',
      'is_failing',
      'last_failure_timestamp',
      'last_modified_at',
      'last_success_timestamp',
      'name',
      'number',
      'targets',
      'triggers',
      'type',
    ]);
    assert.equal(action.number, 1);
    assert.equal(action.type, 'environment');
    assert.equal(action.is_failing, false);
    assert.equal(action.is_created_from_slack_app, false);
    assert.equal(action.last_success_timestamp, null);
    assert.deepEqual(action.environments, ['story']);
    assert.deepEqual(action.flows, []);
    assert.equal(action.targets[1].channel, '#deploys', 'other target types are kept as given');

    const other = await server.json<Action>('PUT', '/api/v2/actions/acme', {
      name: 'to-delete',
      type: 'environment',
      targets: [{ type: 'EMAIL', emails: ['a@example.test'] }],
      environments: ['quiet'],
      triggers: ['ON_STARTED_ARTIFACT'],
    });
    assert.equal(other.status, 201);
    assert.equal(other.body.number, 2);
    const updated = await server.json<Action>('PUT', '/api/v2/actions/acme/environments', {
      name: 'to-delete',
      targets: [{ type: 'EMAIL', emails: ['b@example.test'] }],
      environments: ['quiet'],
      triggers: ['ON_EXITED_ARTIFACT'],
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.number, 2);
    assert.deepEqual(updated.body.triggers, ['ON_EXITED_ARTIFACT']);
    const list = (await server.get<Action[]>('/api/v2/actions/acme')).body;
    assert.deepEqual(
      list.map((a) => a.number),
      [1, 2],
    );
    assert.equal((await server.get<Action>('/api/v2/actions/acme/2')).body.name, 'to-delete');
    assert.equal((await server.json('DELETE', '/api/v2/actions/acme/2')).status, 200);
    assert.equal((await server.get('/api/v2/actions/acme/2')).status, 404);
    assert.deepEqual(
      (await server.get<Action[]>('/api/v2/actions/acme')).body.map((a) => a.number),
      [1],
    );
  });

  it('keeps watching an environment that is renamed', async () => {
    await server.json('PUT', '/api/v2/environments/acme', { name: 'old-name', type: 'K8S', description: 'o' });
    const created = await server.json<Action>('PUT', '/api/v2/actions/acme/environments', {
      name: 'renamed-hook',
      targets: [{ type: 'EMAIL', emails: ['a@example.test'] }],
      environments: ['old-name', 'quiet'],
      triggers: ['ON_STARTED_ARTIFACT'],
    });
    assert.equal(created.status, 201);
    assert.equal(
      (await server.json('PUT', '/api/v2/environments/acme/old-name/rename', { new_name: 'new-name' })).status,
      200,
    );
    assert.deepEqual((await server.get<Action>(`/api/v2/actions/acme/${created.body.number}`)).body.environments, [
      'new-name',
      'quiet',
    ]);
    assert.equal((await server.json('DELETE', `/api/v2/actions/acme/${created.body.number}`)).status, 200);
  });

  it('rejects bad triggers, bad webhook URLs and unknown environments', async () => {
    const badTrigger = await server.json<ErrorBody>('PUT', '/api/v2/actions/acme/environments', {
      name: 'bad',
      targets: [{ type: 'WEBHOOK', webhook: receiver.url() }],
      environments: ['story'],
      triggers: ['ON_STARTED_TRAIL'],
    });
    assert.equal(badTrigger.status, 400);
    assert.ok('triggers[0]' in (badTrigger.body.errors ?? {}));
    const badUrl = await server.json<ErrorBody>('PUT', '/api/v2/actions/acme/environments', {
      name: 'bad',
      targets: [{ type: 'WEBHOOK', webhook: 'not a url' }],
      environments: ['story'],
      triggers: ['ON_STARTED_ARTIFACT'],
    });
    assert.equal(badUrl.status, 400);
    assert.ok('targets[0].webhook' in (badUrl.body.errors ?? {}));
    const unknownEnv = await server.json('PUT', '/api/v2/actions/acme/environments', {
      name: 'bad',
      targets: [{ type: 'WEBHOOK', webhook: receiver.url() }],
      environments: ['nope'],
      triggers: ['ON_STARTED_ARTIFACT'],
    });
    assert.equal(unknownEnv.status, 404);
    assert.equal((await server.get<Action[]>('/api/v2/actions/acme')).body.length, 1, 'nothing stored');
  });

  it('tells the story: snapshots, events, audit-log rows and webhook deliveries', async () => {
    const report = async (body: unknown) => {
      const reply = await server.json('PUT', '/api/v2/environments/acme/story/report/K8S', body);
      assert.equal(reply.status, 200, reply.text);
    };
    // 1. A new artifact: snapshot 1, started.
    await report(pods([['a-1', fp('a')]]));
    await waitFor(() => payloadsOf(receiver).length === 1, 'the started webhook');
    // 2. A second artifact: snapshot 2, started.
    await report(
      pods([
        ['a-1', fp('a')],
        ['b-1', fp('b')],
      ]),
    );
    await waitFor(() => payloadsOf(receiver).length === 2, 'the second started webhook');
    // 3. Scale only, then timestamp only: no snapshot, no event, no webhook.
    await report(
      pods([
        ['a-1', fp('a')],
        ['a-2', fp('a')],
        ['b-1', fp('b')],
      ]),
    );
    await report(
      pods([
        ['a-1', fp('a'), 1800000000],
        ['a-2', fp('a'), 1800000000],
        ['b-1', fp('b'), 1800000000],
      ]),
    );
    // 4. An artifact removed: snapshot 3, exited.
    await report(
      pods([
        ['a-1', fp('a')],
        ['a-2', fp('a')],
      ]),
    );
    await waitFor(() => payloadsOf(receiver).length === 3, 'the exited webhook');

    const snapshots = (await server.get<SnapshotSummary[]>('/api/v2/snapshots/acme/story')).body;
    assert.deepEqual(
      snapshots.map((s) => s.index),
      [3, 2, 1],
    );
    const events = (await server.get<EnvironmentEvent[]>('/api/v2/environments/acme/story/events?reverse=true')).body;
    assert.deepEqual(
      events.map((e) => [e.snapshot_index, e.type, e.sha256]),
      [
        [1, 'started', fp('a')],
        [2, 'started', fp('b')],
        [3, 'exited', fp('b')],
      ],
    );
    const csv = (await server.get('/api/v2/environments/acme/story/auditlog')).text.trim().split('\r\n');
    assert.equal(csv.length, 4);
    assert.deepEqual(
      csv.slice(1).map((line) => line.split(',').slice(2, 5)),
      [
        ['started', 'story', '1'],
        ['started', 'story', '2'],
        ['exited', 'story', '3'],
      ],
    );

    assert.deepEqual(
      payloadsOf(receiver).map((p) => [
        p.trigger,
        p.event_type,
        p.artifact?.fingerprint,
        p.environment?.snapshot_index,
      ]),
      [
        ['ON_STARTED_ARTIFACT', 'started', fp('a'), 1],
        ['ON_STARTED_ARTIFACT', 'started', fp('b'), 2],
        ['ON_EXITED_ARTIFACT', 'exited', fp('b'), 3],
      ],
    );
    const started = payloadsOf(receiver)[0];
    assert.ok(started.environment && started.artifact, 'a started payload carries its environment and artifact');
    assert.equal(started.org, 'acme');
    assert.deepEqual(started.action, { name: 'story-hooks', number: 1 });
    assert.equal(started.environment.name, 'story');
    assert.equal(started.environment.type, 'K8S');
    assert.equal(started.artifact.name, 'reg/app-a:1');
    assert.equal(started.artifact.instances, 1);
    assert.equal(typeof started.timestamp, 'number');
    assert.doesNotMatch(JSON.stringify(payloadsOf(receiver)), /approv/i, 'no approval data in payloads');

    await waitFor(
      async () => (await server.get<Action>('/api/v2/actions/acme/1')).body.last_success_timestamp !== null,
      'the success to be recorded',
    );
    const action = (await server.get<Action>('/api/v2/actions/acme/1')).body;
    assert.equal(action.is_failing, false);
    assert.equal(action.last_failure_timestamp, null);
  });

  it('sends artifact compliance changes and environment compliance changes', async () => {
    const yaml =
      '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1\nartifacts:\n  provenance:\n    required: false\n';
    assert.equal(
      (
        await server.multipart('PUT', '/api/v2/policies/acme', {
          payload: JSON.stringify({ name: 'lenient' }),
          policy_file: yaml,
        })
      ).status,
      201,
    );
    const before = payloadsOf(receiver).length;
    // Attaching: the artifact becomes compliant (was not evaluated) and so does the environment.
    await server.json('POST', '/api/v2/environments/acme/story/policies', { policy_names: ['lenient'] });
    await waitFor(() => payloadsOf(receiver).length === before + 2, 'the attach webhooks');
    // Detaching: not evaluated again, and the environment is no longer compliant.
    await server.json('DELETE', '/api/v2/environments/acme/story/policies', { policy_names: ['lenient'] });
    await waitFor(() => payloadsOf(receiver).length === before + 4, 'the detach webhooks');
    const sent = payloadsOf(receiver).slice(before);
    assert.deepEqual(
      sent.map((p) => p.trigger),
      ['ON_CHANGED_ARTIFACT', 'ON_COMPLIANT_ENV', 'ON_CHANGED_ARTIFACT', 'ON_NON_COMPLIANT_ENV'],
    );
    assert.equal(sent[0].artifact?.compliant, true);
    assert.equal(sent[1].environment?.snapshot_compliant, true);
    assert.equal(sent[1].previous_compliant, false);
    assert.equal(sent[3].environment?.snapshot_compliant, false);
  });

  it('sends flow triggers: a trail begun, an attestation reported, an artifact attested', async () => {
    assert.equal((await server.json('PUT', '/api/v2/flows/acme', { name: 'web', description: 'w' })).status, 201);
    const action = await server.json<Action>('PUT', '/api/v2/actions/acme/flows', {
      name: 'flow-hooks',
      targets: [{ type: 'WEBHOOK', webhook: receiver.url() }],
      flows: ['web'],
      triggers: ['ON_STARTED_TRAIL', 'ON_ATTESTATION', 'ON_ATTESTED_PROVENANCE'],
    });
    assert.equal(action.status, 201, action.text);
    assert.equal(action.body.type, 'flow');
    const unknownFlow = await server.json('PUT', '/api/v2/actions/acme/flows', {
      name: 'nope',
      targets: [{ type: 'WEBHOOK', webhook: receiver.url() }],
      flows: ['nope'],
      triggers: ['ON_ATTESTATION'],
    });
    assert.equal(unknownFlow.status, 404);
    const before = payloadsOf(receiver).length;
    assert.equal(
      (await server.multipart('PUT', '/api/v2/trails/acme/web', { data_json: JSON.stringify({ name: 'build-1' }) }))
        .status,
      201,
    );
    await waitFor(() => payloadsOf(receiver).length === before + 1, 'the trail webhook');
    const attested = await server.multipart('POST', '/api/v2/attestations/acme/web/trail/build-1/generic', {
      data_json: JSON.stringify({ attestation_name: 'unit-tests', is_compliant: false }),
    });
    assert.equal(attested.status, 201, attested.text);
    await waitFor(() => payloadsOf(receiver).length === before + 2, 'the attestation webhook');
    const [trail, attestation] = payloadsOf(receiver).slice(before);
    assert.ok(trail.flow && trail.trail, 'a trail payload carries its flow and trail');
    assert.ok(attestation.attestation, 'an attestation payload carries the attestation');
    assert.equal(trail.trigger, 'ON_STARTED_TRAIL');
    assert.deepEqual([trail.flow.name, trail.trail.name], ['web', 'build-1']);
    assert.match(trail.trail.html_url, /\/acme\/flows\/web\/trails\/build-1$/);
    assert.equal(attestation.trigger, 'ON_ATTESTATION');
    assert.equal(attestation.attestation.name, 'unit-tests');
    assert.equal(attestation.attestation.type, 'generic');
    assert.equal(attestation.attestation.is_compliant, false);
    assert.equal(
      (await server.multipart('PUT', '/api/v2/trails/acme/web', { data_json: JSON.stringify({ name: 'build-1' }) }))
        .status,
      200,
    );
    await server.multipart('POST', '/api/v2/attestations/acme/web/trail/build-1/generic', {
      data_json: JSON.stringify({ attestation_name: 'lint' }),
    });
    await waitFor(() => payloadsOf(receiver).length === before + 3, 'the second attestation webhook');
    assert.equal(payloadsOf(receiver).at(-1)?.attestation?.name, 'lint', 'updating a trail is not starting one');
    const artifact = await server.json('POST', '/api/v2/artifacts/acme/web', {
      fingerprint: fp('e'),
      filename: 'web.tgz',
      trail_name: 'build-1',
      git_commit: 'f'.repeat(40),
    });
    assert.ok(artifact.status < 300, artifact.text);
    await waitFor(() => payloadsOf(receiver).length === before + 4, 'the provenance webhook');
    const provenance = payloadsOf(receiver).at(-1)!;
    assert.equal(provenance.trigger, 'ON_ATTESTED_PROVENANCE');
    assert.deepEqual(
      [provenance.artifact?.fingerprint, provenance.artifact?.name, provenance.trail?.name],
      [fp('e'), 'web.tgz', 'build-1'],
    );
  });

  it('records a failing receiver: bounded retries, then is_failing and last_failure_timestamp', async () => {
    const created = await server.json<Action>('PUT', '/api/v2/actions/acme/environments', {
      name: 'broken-hook',
      targets: [{ type: 'WEBHOOK', webhook: failing.url() }],
      environments: ['broken'],
      triggers: ['ON_STARTED_ARTIFACT'],
    });
    assert.equal(created.status, 201);
    const number = created.body.number;
    await server.json('PUT', '/api/v2/environments/acme/broken/report/K8S', pods([['c-1', fp('c')]]));
    await waitFor(
      async () => (await server.get<Action>(`/api/v2/actions/acme/${number}`)).body.is_failing === true,
      'the failure to be recorded',
    );
    assert.equal(payloadsOf(failing).length, 4, 'four attempts, then it gives up');
    const action = (await server.get<Action>(`/api/v2/actions/acme/${number}`)).body;
    assert.equal(typeof action.last_failure_timestamp, 'number');
    assert.equal(action.last_success_timestamp, null);
  });
});
