// Webhook deliveries are stored with their event (the outbox, migration 205), so they outlive the
// server process that acknowledged the event: on either engine, a delivery whose receiver was down
// while its server ran is made once by the server started again on the same data.
import assert from 'node:assert/strict';
import type { Action } from './answers.ts';
import { startServer, tempDataDir, type TestServer } from './harness.ts';
import { beginTrail } from './fixtures.ts';
import { valueAt } from './valueAt.ts';
import { WebhookReceiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';

describe('webhook outbox: deliveries outlive the server process', function () {
  this.timeout(60_000);
  const servers: TestServer[] = [];
  let receiver: WebhookReceiver | undefined;
  let backoff: string | undefined;
  before(() => {
    // The first attempt fails at once (the receiver is down); the next is due 2 s later, long after the
    // server was stopped, so the delivery is still waiting in the outbox when the server is gone.
    backoff = process.env.CEV_WEBHOOK_BACKOFF_MS;
    process.env.CEV_WEBHOOK_BACKOFF_MS = '2000';
  });
  after(async () => {
    if (backoff === undefined) delete process.env.CEV_WEBHOOK_BACKOFF_MS;
    else process.env.CEV_WEBHOOK_BACKOFF_MS = backoff;
    for (const server of servers) await server.stop().catch(() => undefined);
    await receiver?.close();
  });

  it('receiver down, events recorded, server stopped, receiver up, server restarted: each delivered once, in order', async () => {
    // Down (every connection reset) until it comes back, on a port it keeps all along.
    receiver = await WebhookReceiver.start({ down: true });
    const hook = receiver;
    const received = () =>
      hook.deliveries.map((delivery) => ({ trail: String(valueAt(delivery.body, 'trail', 'name')), at: delivery.at }));

    const dataDir = tempDataDir();
    // The receiver is on loopback, which webhooks reach only with the operator's flag.
    const first = await startServer({ args: ['--org', 'acme', '--allow-private-webhooks'], dataDir });
    servers.push(first);
    assert.equal((await first.json('PUT', '/api/v2/flows/acme', { name: 'kept', description: 'k' })).status, 201);
    const action = await first.json<Action>('PUT', '/api/v2/actions/acme/flows', {
      name: 'kept-hooks',
      targets: [{ type: 'WEBHOOK', webhook: hook.url() }],
      flows: ['kept'],
      triggers: ['ON_STARTED_TRAIL'],
    });
    assert.equal(action.status, 201, action.text);
    for (const name of ['first', 'second', 'third'])
      assert.equal((await beginTrail(first, 'acme', 'kept', name)).status, 201);
    await first.stop({ keepData: true });

    hook.behave({ answer: 200 });
    assert.equal(received().length, 0, 'nothing was delivered while the receiver was down');
    const second = await startServer({ args: ['--org', 'acme', '--allow-private-webhooks'], dataDir });
    servers.push(second);
    // A row goes in the transaction that records its outcome: once the action shows a success
    // after the third arrived, nothing is left to send.
    const shown = async () => (await second.get<Action>(`/api/v2/actions/acme/${action.body.number}`)).body;
    await waitFor(
      async () => received().length >= 3 && ((await shown()).last_success_timestamp ?? 0) >= received()[2].at,
      'the three deliveries and the outcome of the last',
      20_000,
    );
    assert.equal((await shown()).is_failing, false);
    assert.deepEqual(
      received().map((item) => item.trail),
      ['first', 'second', 'third'],
    );
  });
});
