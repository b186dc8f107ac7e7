// Webhook deliveries are stored with their event (the outbox, migration 205), so they outlive the
// server process that acknowledged the event: on either engine, a delivery whose receiver was down
// while its server ran is made once by the server started again on the same data.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Action } from './answers.ts';
import { startServer, tempDataDir, type TestServer } from './harness.ts';
import { beginTrail } from './fixtures.ts';
import { valueAt } from './valueAt.ts';

/** Waits (bounded) until `condition` holds. */
async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Received {
  trail: string;
  /** Epoch seconds. */
  at: number;
}

/** A loopback receiver on `port` (0: a free one) that records the trail name of each payload and answers 200. */
async function startReceiver(port: number, received: Received[]): Promise<Server> {
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      received.push({ trail: String(valueAt(JSON.parse(text), 'trail', 'name')), at: Date.now() / 1000 });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

const closed = (server: Server): Promise<unknown> => new Promise((resolve) => server.close(resolve));

describe('webhook outbox: deliveries outlive the server process', function () {
  this.timeout(60_000);
  const servers: TestServer[] = [];
  let receiver: Server | undefined;
  let backoff: string | undefined;
  before(() => {
    // The first attempt fails at once (nothing listens); the next is due 2 s later, long after the
    // server was stopped, so the delivery is still waiting in the outbox when the server is gone.
    backoff = process.env.CEV_WEBHOOK_BACKOFF_MS;
    process.env.CEV_WEBHOOK_BACKOFF_MS = '2000';
  });
  after(async () => {
    if (backoff === undefined) delete process.env.CEV_WEBHOOK_BACKOFF_MS;
    else process.env.CEV_WEBHOOK_BACKOFF_MS = backoff;
    for (const server of servers) await server.stop().catch(() => undefined);
    if (receiver?.listening) await closed(receiver);
  });

  it('receiver down, events recorded, server stopped, receiver up, server restarted: each delivered once, in order', async () => {
    const received: Received[] = [];
    // A port nothing listens on until the receiver comes back on it.
    const probe = await startReceiver(0, received);
    const port = (probe.address() as AddressInfo).port;
    await closed(probe);

    const dataDir = tempDataDir();
    // The receiver is on loopback, which webhooks reach only with the operator's flag.
    const first = await startServer({ args: ['--org', 'acme', '--allow-private-webhooks'], dataDir });
    servers.push(first);
    assert.equal((await first.json('PUT', '/api/v2/flows/acme', { name: 'kept', description: 'k' })).status, 201);
    const action = await first.json<Action>('PUT', '/api/v2/actions/acme/flows', {
      name: 'kept-hooks',
      targets: [{ type: 'WEBHOOK', webhook: `http://127.0.0.1:${port}/hook` }],
      flows: ['kept'],
      triggers: ['ON_STARTED_TRAIL'],
    });
    assert.equal(action.status, 201, action.text);
    for (const name of ['first', 'second', 'third'])
      assert.equal((await beginTrail(first, 'acme', 'kept', name)).status, 201);
    await first.stop({ keepData: true });

    receiver = await startReceiver(port, received);
    assert.equal(received.length, 0, 'nothing was delivered while the receiver was down');
    const second = await startServer({ args: ['--org', 'acme', '--allow-private-webhooks'], dataDir });
    servers.push(second);
    // A row goes in the transaction that records its outcome: once the action shows a success
    // after the third arrived, nothing is left to send.
    const shown = async () => (await second.get<Action>(`/api/v2/actions/acme/${action.body.number}`)).body;
    await waitFor(
      async () => received.length >= 3 && ((await shown()).last_success_timestamp ?? 0) >= received[2].at,
      'the three deliveries and the outcome of the last',
    );
    assert.equal((await shown()).is_failing, false);
    assert.deepEqual(
      received.map((item) => item.trail),
      ['first', 'second', 'third'],
    );
  });
});
