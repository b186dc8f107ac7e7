// Webhook delivery, off the request path: a write request commits, then hands its notifications
// here and answers at once. Each delivery is POSTed as JSON with undici and retried with
// exponential backoff a bounded number of times; the outcome is reported once per delivery so the
// action's `is_failing` / `last_success_timestamp` / `last_failure_timestamp` say what happened.
// Deliveries to one URL of one action go out one after another, in the order of their events.
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';

export interface WebhookDelivery {
  org: string;
  /** The action whose target this is. */
  actionNumber: number;
  url: string;
  payload: unknown;
}

export interface DeliveryOutcome {
  org: string;
  actionNumber: number;
  ok: boolean;
  /** Epoch seconds of the last attempt. */
  timestamp: number;
  attempts: number;
  /** Why the last attempt failed. */
  error?: string;
}

export interface WebhookSenderOptions {
  /** Attempts per delivery, the first included. */
  attempts?: number;
  /** Wait before the second attempt; doubles for each one after, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Per attempt, for connecting, headers and body together. */
  timeoutMs?: number;
  /** Called once per delivery with its final outcome. */
  onOutcome: (outcome: DeliveryOutcome) => unknown;
}

export interface WebhookSender {
  /** Queues a delivery and returns at once. */
  send(delivery: WebhookDelivery): void;
  /** Resolves when every delivery queued so far has its outcome. */
  settled(): Promise<void>;
  /** Stops: pending waits and requests are abandoned without an outcome. */
  close(): Promise<void>;
}

// A receiver that answers 4xx other than 408/429 rejects this payload; asking again will not help.
function isRetryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const attempts = Math.max(1, options.attempts ?? 4);
  const backoffMs = options.backoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const stop = new AbortController();
  const pending = new Set<Promise<void>>();
  const lanes = new Map<string, Promise<void>>();

  async function attempt(delivery: WebhookDelivery, body: string): Promise<string | undefined> {
    try {
      const response = await request(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'compliance-evidence-webhooks' },
        body,
        signal: AbortSignal.any([stop.signal, AbortSignal.timeout(timeoutMs)]),
      });
      await response.body.dump();
      if (response.statusCode >= 200 && response.statusCode < 300) return undefined;
      return isRetryable(response.statusCode) ? `HTTP ${response.statusCode}` : `final: HTTP ${response.statusCode}`;
    } catch (error) {
      if (stop.signal.aborted) throw error;
      return error instanceof Error ? error.message : String(error);
    }
  }

  async function deliver(delivery: WebhookDelivery): Promise<void> {
    const body = JSON.stringify(delivery.payload);
    let error: string | undefined;
    let made = 0;
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await delay(Math.min(maxBackoffMs, backoffMs * 2 ** (i - 1)), undefined, { signal: stop.signal });
      made += 1;
      error = await attempt(delivery, body);
      if (error === undefined || error.startsWith('final: ')) break;
    }
    const outcome: DeliveryOutcome = {
      org: delivery.org,
      actionNumber: delivery.actionNumber,
      ok: error === undefined,
      timestamp: Date.now() / 1000,
      attempts: made,
    };
    if (error !== undefined) outcome.error = error.replace(/^final: /, '');
    await options.onOutcome(outcome);
  }

  return {
    send(delivery) {
      if (stop.signal.aborted) return;
      const lane = `${delivery.org}\0${delivery.actionNumber}\0${delivery.url}`;
      const previous = lanes.get(lane) ?? Promise.resolve();
      const running: Promise<void> = previous
        .then(() => (stop.signal.aborted ? undefined : deliver(delivery)))
        .catch(() => undefined)
        .finally(() => {
          pending.delete(running);
          if (lanes.get(lane) === running) lanes.delete(lane);
        });
      lanes.set(lane, running);
      pending.add(running);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async close() {
      stop.abort(new Error('webhook sender closed'));
      await Promise.all([...pending]);
    },
  };
}
