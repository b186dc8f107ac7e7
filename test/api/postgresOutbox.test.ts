// Webhook deliveries over two instances on one PostgreSQL database (issue 10): each is made once
// across all instances, whichever instance stored it, and one instance killed while holding
// deliveries leaves them to the other, which makes each once, in the order of its lane.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Action } from './answers.ts';
import { attest, beginTrail } from './fixtures.ts';
import { startServer, type TestServer } from './harness.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';
import { valueAt } from './valueAt.ts';
import { WebhookReceiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';

describe('PostgreSQL: webhook deliveries over two instances', function () {
  this.timeout(90_000);
  let postgres: PostgresServer;
  let evidence: string;
  let url: string;
  let database: pg.Client;
  const instances: TestServer[] = [];
  let receiver: WebhookReceiver;
  let hooks: string;
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    // One attempt times out after a second, so a claim (three attempt timeouts) held by a killed
    // instance expires after three seconds; retries come 50 ms apart.
    for (const [name, value] of [
      ['CEV_WEBHOOK_TIMEOUT_MS', '1000'],
      ['CEV_WEBHOOK_BACKOFF_MS', '50'],
    ]) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    postgres = await startPostgres();
    url = await postgres.createDatabase('outbox');
    evidence = mkdtempSync(join(tmpdir(), 'cev-evidence-'));
    receiver = await WebhookReceiver.start();
    hooks = receiver.url('');
    instances.push(
      ...(await Promise.all(
        // --allow-private-webhooks: the receiver is on loopback.
        [0, 1].map(() =>
          startServer({
            process: true,
            args: ['--org', 'acme', '--database', url, '--evidence', evidence, '--allow-private-webhooks'],
          }),
        ),
      )),
    );
    database = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    await database.connect();
  });
  after(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await database?.end().catch(() => undefined);
    for (const instance of instances) await instance.stop().catch(() => undefined);
    await receiver?.close();
    await postgres?.stop();
    rmSync(evidence, { recursive: true, force: true });
  });

  const outboxEmpty = async (): Promise<boolean> =>
    (await database.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_outbox')).rows[0].n === 0;

  /** A flow and an action on it with two webhook targets (two lanes), `/<flow>/1` and `/<flow>/2`. */
  async function hookedFlow(server: TestServer, flow: string, trigger: string): Promise<Action> {
    assert.equal((await server.json('PUT', '/api/v2/flows/acme', { name: flow, description: flow })).status, 201);
    const action = await server.json<Action>('PUT', '/api/v2/actions/acme/flows', {
      name: `${flow}-hooks`,
      targets: [
        { type: 'WEBHOOK', webhook: `${hooks}/${flow}/1` },
        { type: 'WEBHOOK', webhook: `${hooks}/${flow}/2` },
      ],
      flows: [flow],
      triggers: [trigger],
    });
    assert.equal(action.status, 201, action.text);
    return action.body;
  }

  it('a burst of attestations over both instances: each delivery made exactly once', async () => {
    const [a, b] = instances as [TestServer, TestServer];
    await hookedFlow(a, 'burst', 'ON_ATTESTATION');
    assert.equal((await beginTrail(b, 'acme', 'burst', 'build')).status, 201);
    // Attestations commit together on PostgreSQL (concurrent transactions): their deliveries are
    // written with them.
    const names = Array.from({ length: 40 }, (_, i) => `check-${i}`);
    const replies = await Promise.all(
      names.map((name, i) =>
        attest(i % 2 === 0 ? a : b, 'acme', 'burst', 'build', 'generic', {
          attestation_name: name,
          is_compliant: true,
        }),
      ),
    );
    assert.deepEqual(
      replies.map((reply) => reply.status),
      names.map(() => 201),
    );
    const ofBurst = () => receiver.deliveries.filter((item) => item.path.startsWith('/burst/'));
    await waitFor(
      async () => ofBurst().length >= 80 && (await outboxEmpty()),
      'all 80 deliveries made and the outbox empty',
      30_000,
    );
    for (const lane of ['/burst/1', '/burst/2']) {
      const made = ofBurst()
        .filter((item) => item.path === lane)
        .map((item) => String(valueAt(item.body, 'attestation', 'name')));
      assert.deepEqual([...made].sort(), [...names].sort(), `each attestation once to ${lane}`);
    }
    assert.equal(ofBurst().length, 80);
  });

  it('an instance killed right after acknowledging events whose receiver is slow: the other delivers each once, in lane order', async () => {
    const [a, b] = instances as [TestServer, TestServer];
    const action = await hookedFlow(b, 'slow', 'ON_STARTED_TRAIL');
    receiver.behave({ hold: true });
    const trails = Array.from({ length: 5 }, (_, i) => `run-${i}`);
    for (const name of trails) assert.equal((await beginTrail(a, 'acme', 'slow', name)).status, 201);
    // The instance that wrote them holds the first of each lane, waiting for the receiver.
    await waitFor(() => receiver.heldCount >= 2, 'the first attempts');
    await a.kill();
    receiver.behave({ answer: 200 });

    const ofSlow = () => receiver.deliveries.filter((item) => item.path.startsWith('/slow/'));
    await waitFor(
      async () => ofSlow().length >= 10 && (await outboxEmpty()),
      'all 10 deliveries made by the surviving instance and the outbox empty',
      30_000,
    );
    for (const lane of ['/slow/1', '/slow/2'])
      assert.deepEqual(
        ofSlow()
          .filter((item) => item.path === lane)
          .map((item) => valueAt(item.body, 'trail', 'name')),
        trails,
        `each trail once to ${lane}, in the order begun`,
      );
    const shown = (await b.get<Action>(`/api/v2/actions/acme/${action.number}`)).body;
    assert.equal(shown.is_failing, false);
    assert.equal(typeof shown.last_success_timestamp, 'number');
  });
});
