import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookSender, type DeliveryOutcome } from '../../server/api/delivery/webhooks.ts';

interface Received {
  headers: IncomingMessage['headers'];
  body: unknown;
}

// A loopback receiver that answers each request with the next status of `statuses` (then 200).
async function startReceiver(statuses: number[]): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(text) });
      res.statusCode = statuses.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, server };
}

describe('webhook sender', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  it('POSTs the payload as JSON and reports one success', async () => {
    const receiver = await startReceiver([]);
    servers.push(receiver.server);
    const outcomes: DeliveryOutcome[] = [];
    const sender = createWebhookSender({ onOutcome: (o) => outcomes.push(o) });
    sender.send({ org: 'acme', actionNumber: 7, url: receiver.url, payload: { event: 'ON_STARTED_ARTIFACT', n: 1 } });
    await sender.settled();
    assert.equal(receiver.received.length, 1);
    assert.deepEqual(receiver.received[0].body, { event: 'ON_STARTED_ARTIFACT', n: 1 });
    assert.equal(receiver.received[0].headers['content-type'], 'application/json');
    assert.equal(outcomes.length, 1);
    assert.equal(outcomes[0].ok, true);
    assert.equal(outcomes[0].attempts, 1);
    assert.equal(outcomes[0].actionNumber, 7);
    await sender.close();
  });

  it('retries 5xx with backoff, then succeeds', async () => {
    const receiver = await startReceiver([500, 503]);
    servers.push(receiver.server);
    const outcomes: DeliveryOutcome[] = [];
    const sender = createWebhookSender({ backoffMs: 20, onOutcome: (o) => outcomes.push(o) });
    const started = performance.now();
    sender.send({ org: 'acme', actionNumber: 1, url: receiver.url, payload: {} });
    await sender.settled();
    assert.ok(performance.now() - started >= 20 + 40 - 5, 'waited 20 ms then 40 ms between attempts');
    assert.equal(receiver.received.length, 3);
    assert.deepEqual(
      outcomes.map((o) => [o.ok, o.attempts]),
      [[true, 3]],
    );
    await sender.close();
  });

  it('gives up after the bounded attempts and reports the failure', async () => {
    const receiver = await startReceiver([500, 500, 500, 500, 500]);
    servers.push(receiver.server);
    const outcomes: DeliveryOutcome[] = [];
    const sender = createWebhookSender({ attempts: 3, backoffMs: 5, onOutcome: (o) => outcomes.push(o) });
    sender.send({ org: 'acme', actionNumber: 2, url: receiver.url, payload: {} });
    await sender.settled();
    assert.equal(receiver.received.length, 3);
    assert.deepEqual(
      outcomes.map((o) => [o.ok, o.attempts, o.error]),
      [[false, 3, 'HTTP 500']],
    );
    await sender.close();
  });

  it('does not retry a 4xx rejection', async () => {
    const receiver = await startReceiver([404]);
    servers.push(receiver.server);
    const outcomes: DeliveryOutcome[] = [];
    const sender = createWebhookSender({ backoffMs: 5, onOutcome: (o) => outcomes.push(o) });
    sender.send({ org: 'acme', actionNumber: 3, url: receiver.url, payload: {} });
    await sender.settled();
    assert.equal(receiver.received.length, 1);
    assert.deepEqual(
      outcomes.map((o) => [o.ok, o.attempts, o.error]),
      [[false, 1, 'HTTP 404']],
    );
    await sender.close();
  });

  it('reports an unreachable receiver as a failure', async () => {
    const receiver = await startReceiver([]);
    const url = receiver.url;
    await new Promise((resolve) => receiver.server.close(resolve));
    const outcomes: DeliveryOutcome[] = [];
    const sender = createWebhookSender({ attempts: 2, backoffMs: 5, onOutcome: (o) => outcomes.push(o) });
    sender.send({ org: 'acme', actionNumber: 4, url, payload: {} });
    await sender.settled();
    assert.equal(outcomes.length, 1);
    assert.equal(outcomes[0].ok, false);
    assert.equal(outcomes[0].attempts, 2);
    await sender.close();
  });

  it('delivers to one URL of one action in order, even when an earlier delivery is retried', async () => {
    const receiver = await startReceiver([500]);
    servers.push(receiver.server);
    const outcomes: DeliveryOutcome[] = [];
    const sender = createWebhookSender({ backoffMs: 20, onOutcome: (o) => outcomes.push(o) });
    for (let n = 1; n <= 3; n++) sender.send({ org: 'acme', actionNumber: 6, url: receiver.url, payload: { n } });
    await sender.settled();
    assert.deepEqual(
      receiver.received.map((r) => (r.body as { n: number }).n),
      [1, 1, 2, 3],
    );
    assert.deepEqual(
      outcomes.map((o) => o.ok),
      [true, true, true],
    );
    await sender.close();
  });

  it('abandons pending retries on close without reporting them', async () => {
    const receiver = await startReceiver([500]);
    servers.push(receiver.server);
    const outcomes: DeliveryOutcome[] = [];
    const sender = createWebhookSender({ backoffMs: 60_000, onOutcome: (o) => outcomes.push(o) });
    sender.send({ org: 'acme', actionNumber: 5, url: receiver.url, payload: {} });
    const deadline = Date.now() + 5000;
    while (receiver.received.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setImmediate(resolve));
    await sender.close();
    assert.deepEqual(outcomes, []);
    sender.send({ org: 'acme', actionNumber: 5, url: receiver.url, payload: {} });
    await sender.settled();
    assert.equal(receiver.received.length, 1, 'a closed sender sends nothing');
  });
});
