// The webhook deliverer over a real store (SQLite in memory) and a real loopback receiver: what an
// attempt sends, retries and their backoff, giving up, lane order, closing, and claims that expire.
import assert from 'node:assert/strict';
import { startDeliverer, type Deliverer, type DeliveryOutcome } from '../../server/api/delivery/deliverer.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../server/api/delivery/webhooks.ts';
import { webhookTargetOf } from '../../server/api/rules/webhookTargets.ts';
import { openStore, type Store } from '../../server/api/store/index.ts';
import type { ClaimLimits } from '../../server/api/store/outbox.ts';
import { WebhookReceiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';

/** A claim of the test's own, as another deliverer with nothing in flight makes it. */
const unlimited: ClaimLimits = { total: 10, perOrg: 10, perTarget: 10, inFlight: [] };

const receivers: WebhookReceiver[] = [];

/** A loopback receiver answering each request with the next status of `statuses`, then 200. */
async function startReceiver(statuses: number[]): Promise<WebhookReceiver> {
  const receiver = await WebhookReceiver.start({ answer: () => statuses.shift() ?? 200 });
  receivers.push(receiver);
  return receiver;
}

describe('webhook deliverer', () => {
  const deliverers: Deliverer[] = [];
  let store: Store;
  let outcomes: DeliveryOutcome[];

  beforeEach(async () => {
    store = await openStore({ dataDir: undefined });
    outcomes = [];
  });
  afterEach(async () => {
    for (const deliverer of deliverers.splice(0)) await deliverer.close();
    await store.close();
    for (const receiver of receivers.splice(0)) await receiver.close();
  });

  function deliverer(policy: Partial<RetryPolicy> = {}): Deliverer {
    const started = startDeliverer({
      store,
      policy: { ...DEFAULT_RETRY_POLICY, ...policy },
      // The receivers of these tests are on loopback.
      allowPrivateTargets: true,
      onOutcome: (_tx, outcome) => {
        outcomes.push(outcome);
        return Promise.resolve();
      },
    });
    deliverers.push(started);
    return started;
  }

  async function storeDeliveries(url: string, actionNumber: number, payloads: unknown[]): Promise<void> {
    await store.transaction(() =>
      store.outbox.add(
        payloads.map((payload) => ({
          orgId: 1,
          actionNumber,
          url,
          target: webhookTargetOf(url),
          payload: JSON.stringify(payload),
        })),
        Date.now() / 1000,
      ),
    );
  }

  const waiting = async (): Promise<number | undefined> => store.outbox.nextDue(Date.now() / 1000);

  it('POSTs the stored payload as JSON, records one success and deletes the row', async () => {
    const receiver = await startReceiver([]);
    await storeDeliveries(receiver.url(), 7, [{ event: 'ON_STARTED_ARTIFACT', n: 1 }]);
    deliverer().wake();
    await waitFor(() => outcomes.length === 1, 'the outcome');
    assert.equal(receiver.deliveries.length, 1);
    assert.deepEqual(receiver.deliveries[0].body, { event: 'ON_STARTED_ARTIFACT', n: 1 });
    assert.equal(receiver.deliveries[0].headers['content-type'], 'application/json');
    assert.deepEqual(
      outcomes.map((o) => [o.ok, o.attempts, o.actionNumber, o.orgId]),
      [[true, 1, 7, 1]],
    );
    assert.equal(await waiting(), undefined, 'the row is gone');
  });

  it('retries 5xx with backoff, then succeeds', async () => {
    const receiver = await startReceiver([500, 503]);
    await storeDeliveries(receiver.url(), 1, [{}]);
    const started = performance.now();
    deliverer({ backoffMs: 20 }).wake();
    await waitFor(() => outcomes.length === 1, 'the outcome');
    assert.ok(performance.now() - started >= 20 + 40 - 5, 'waited 20 ms then 40 ms between attempts');
    assert.equal(receiver.deliveries.length, 3);
    assert.deepEqual(
      outcomes.map((o) => [o.ok, o.attempts]),
      [[true, 3]],
    );
  });

  it('gives up after the bounded attempts and records the failure', async () => {
    const receiver = await startReceiver([500, 500, 500, 500, 500]);
    await storeDeliveries(receiver.url(), 2, [{}]);
    deliverer({ attempts: 3, backoffMs: 5 }).wake();
    await waitFor(() => outcomes.length === 1, 'the outcome');
    assert.equal(receiver.deliveries.length, 3);
    assert.deepEqual(
      outcomes.map((o) => [o.ok, o.attempts, o.error]),
      [[false, 3, 'HTTP 500']],
    );
    assert.equal(await waiting(), undefined, 'the row is gone');
  });

  it('does not retry a 4xx rejection', async () => {
    const receiver = await startReceiver([404]);
    await storeDeliveries(receiver.url(), 3, [{}]);
    deliverer({ backoffMs: 5 }).wake();
    await waitFor(() => outcomes.length === 1, 'the outcome');
    assert.equal(receiver.deliveries.length, 1);
    assert.deepEqual(
      outcomes.map((o) => [o.ok, o.attempts, o.error]),
      [[false, 1, 'HTTP 404']],
    );
  });

  it('records an unreachable receiver as a failure', async () => {
    const receiver = await startReceiver([]);
    receiver.behave({ down: true });
    await storeDeliveries(receiver.url(), 4, [{}]);
    deliverer({ attempts: 2, backoffMs: 5 }).wake();
    await waitFor(() => outcomes.length === 1, 'the outcome');
    assert.equal(outcomes[0].ok, false);
    assert.equal(outcomes[0].attempts, 2);
  });

  it('delivers to one URL of one action in order, even when an earlier delivery is retried', async () => {
    const receiver = await startReceiver([500]);
    await storeDeliveries(receiver.url(), 6, [{ n: 1 }, { n: 2 }, { n: 3 }]);
    deliverer({ backoffMs: 20 }).wake();
    await waitFor(() => outcomes.length === 3, 'three outcomes');
    assert.deepEqual(
      receiver.deliveries.map((r) => (r.body as { n: number }).n),
      [1, 1, 2, 3],
    );
    assert.deepEqual(
      outcomes.map((o) => o.ok),
      [true, true, true],
    );
  });

  it('finds deliveries stored before it started, without being woken', async () => {
    const receiver = await startReceiver([]);
    await storeDeliveries(receiver.url(), 8, [{ n: 1 }]);
    deliverer();
    await waitFor(() => outcomes.length === 1, 'the outcome');
    assert.equal(receiver.deliveries.length, 1);
  });

  it('on close keeps a pending retry stored, with its attempts, and records nothing', async () => {
    const receiver = await startReceiver([500]);
    await storeDeliveries(receiver.url(), 5, [{}]);
    // A claim lasts three attempt timeouts: with a short timeout, a due time half a minute ahead
    // is the stored retry's (its backoff, capped at 30 s), never the claim of the attempt in flight.
    const closing = deliverer({ backoffMs: 60_000, timeoutMs: 1_000 });
    closing.wake();
    await waitFor(() => receiver.deliveries.length === 1, 'the first attempt');
    await waitFor(
      async () => ((await waiting()) ?? 0) > Date.now() / 1000 + 20,
      'the retry stored half a minute ahead',
    );
    await closing.close();
    assert.deepEqual(outcomes, []);
    const later = Date.now() / 1000 + 120;
    const [row] = await store.outbox.claim('next', later + 1, later, unlimited);
    assert.equal(row?.attempts, 1, 'the retry waits in the outbox, one attempt made');
  });

  it('takes over a delivery whose claim expired (its deliverer died)', async () => {
    const receiver = await startReceiver([]);
    await storeDeliveries(receiver.url(), 9, [{ n: 1 }, { n: 2 }]);
    const now = Date.now() / 1000;
    const claimed = await store.outbox.claim('dead instance', now + 0.3, now, unlimited);
    assert.equal(claimed.length, 1, 'only the first of the lane is claimed');
    deliverer();
    await waitFor(() => outcomes.length === 2, 'both outcomes');
    assert.ok(Date.now() / 1000 >= now + 0.3, 'not before the claim expired');
    assert.deepEqual(
      receiver.deliveries.map((r) => (r.body as { n: number }).n),
      [1, 2],
    );
  });
});
