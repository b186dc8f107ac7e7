// Allowlisted artifacts (reference §2.17) count as compliant in snapshots and in policy assertion,
// and ON_ALLOWED_ARTIFACT fires for them, on the real server with a loopback webhook receiver.
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { AllowlistEntry, Snapshot } from './answers.ts';
import { parsedAs } from './contract.ts';
import { WebhookReceiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';
import { startServer, type TestServer } from './harness.ts';
import { createEnvironment } from './fixtures.ts';

/** What these tests read of an environment webhook payload (reference §2.12). */
const environmentPayload = {
  type: 'object',
  properties: {
    event_type: { type: 'string' },
    environment: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    artifact: { type: 'object', properties: { fingerprint: { type: 'string' } }, required: ['fingerprint'] },
  },
  required: ['event_type'],
} as const;
type EnvironmentPayload = FromSchema<typeof environmentPayload>;

const STRICT =
  '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1\nartifacts:\n  provenance:\n    required: true\n';
const HOTFIX = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);

function k8s(digests: string[]) {
  return {
    artifacts: digests.map((digest, index) => ({
      podName: `pod-${index}`,
      namespace: 'prod',
      creationTimestamp: 1700000000,
      digests: { [`reg/app-${index}:1`]: digest },
      owners: [],
    })),
  };
}

describe('allowlisted artifacts', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  /** The payloads received, each checked against what these tests read of a payload. */
  const received = (): EnvironmentPayload[] =>
    receiver.deliveries.map((delivery) => parsedAs<EnvironmentPayload>(environmentPayload, delivery.text));

  before(async () => {
    receiver = await WebhookReceiver.start();
    // The receiver is on loopback, which webhooks reach only with the operator's flag.
    server = await startServer({ args: ['--allow-private-webhooks'] });
    await createEnvironment(server, 'default', 'prod');
    assert.equal(
      (
        await server.multipart('PUT', '/api/v2/policies/default', {
          payload: JSON.stringify({ name: 'strict', description: 'provenance', type: 'env' }),
          policy_file: { filename: 'p.yml', content: STRICT },
        })
      ).status,
      201,
    );
    assert.equal(
      (await server.json('POST', '/api/v2/environments/default/prod/policies', { policy_names: ['strict'] })).status,
      200,
    );
    const action = await server.json('PUT', '/api/v2/actions/default/environments', {
      name: 'allowed',
      targets: [{ type: 'WEBHOOK', webhook: receiver.url() }],
      environments: ['prod'],
      triggers: ['ON_ALLOWED_ARTIFACT'],
    });
    assert.equal(action.status, 201, action.text);
  });
  after(async () => {
    await server?.stop();
    await receiver?.close();
  });

  const latest = async () => (await server.get<Snapshot>('/api/v2/snapshots/default/prod/-1')).body;

  it('turns a running artifact compliant as soon as it is allowed, and says so through ON_ALLOWED_ARTIFACT', async () => {
    assert.equal(
      (await server.json('PUT', '/api/v2/environments/default/prod/report/K8S', k8s([HOTFIX, OTHER]))).status,
      200,
    );
    const before = await latest();
    assert.equal(before.compliant, false, 'no provenance: the strict policy fails both');
    assert.deepEqual(before.applied_policies?.[0].failing_artifacts?.sort(), [HOTFIX, OTHER]);

    assert.equal(
      (
        await server.json('PUT', '/api/v2/allowlists/default/prod', {
          artifact_fingerprint: HOTFIX,
          artifact_name: 'reg/app-0:1',
          description: 'hotfix',
        })
      ).status,
      200,
    );
    const after = await latest();
    assert.equal(after.index, before.index + 1, 'allowing a running artifact judges the environment again');
    const hotfix = after.artifacts.find((artifact) => artifact.fingerprint === HOTFIX);
    assert.ok(hotfix, 'the allowed artifact is in the snapshot');
    assert.equal(hotfix.compliant, true);
    assert.deepEqual(hotfix.reasons_for_incompliance, []);
    assert.equal(hotfix.policy_decisions?.[0].status, 'NON-COMPLIANT', 'the decision still says what the policy found');
    assert.deepEqual(after.applied_policies?.[0].failing_artifacts, [OTHER]);
    assert.equal(after.compliant, false, 'the other artifact still fails');

    await waitFor(
      () => received().some((payload) => payload.event_type === 'allowed'),
      'the ON_ALLOWED_ARTIFACT webhook',
    );
    const allowed = received().find((payload) => payload.event_type === 'allowed')!;
    assert.equal(allowed.artifact?.fingerprint, HOTFIX);
    assert.equal(allowed.environment?.name, 'prod');
  });

  it('keeps an allowed artifact compliant in later reports, and the environment compliant when all that runs is allowed', async () => {
    assert.equal((await server.json('PUT', '/api/v2/environments/default/prod/report/K8S', k8s([HOTFIX]))).status, 200);
    const only = await latest();
    assert.equal(only.compliant, true);
    assert.equal(only.artifacts.find((artifact) => artifact.fingerprint === HOTFIX)?.compliant, true);
  });

  it('answers a fingerprint allowed elsewhere or unknown environment as before', async () => {
    const missing = await server.json('PUT', '/api/v2/allowlists/default/nowhere', {
      artifact_fingerprint: OTHER,
      description: 'x',
    });
    assert.equal(missing.status, 404);
    assert.deepEqual(
      (await server.get<AllowlistEntry[]>('/api/v2/allowlists/default')).body.map(
        (entry) => entry.artifact_fingerprint,
      ),
      [HOTFIX],
    );
  });
});
