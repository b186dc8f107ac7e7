// One webhook attempt: the stored payload POSTed as JSON with undici, within a per-attempt
// timeout, and what its answer means (delivered, worth another attempt, or refused for good); and
// how long to wait before the next attempt (exponential backoff, bounded).
import { request } from 'undici';
import { RefusedTarget, type TargetGuard } from './targetGuard.ts';

export interface RetryPolicy {
  /** Attempts per delivery, the first included. */
  attempts: number;
  /** Wait before the second attempt; doubles for each one after, up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Per attempt, for connecting, headers and body together. */
  timeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 4,
  backoffMs: 500,
  maxBackoffMs: 30_000,
  timeoutMs: 10_000,
};

/** What one attempt came to: delivered, or why not and whether another attempt may help. */
export type AttemptResult = { ok: true } | { ok: false; error: string; retryable: boolean };

/** The wait after `attemptsMade` failed attempts before the next one. */
export function retryDelayMs(policy: RetryPolicy, attemptsMade: number): number {
  return Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** (attemptsMade - 1));
}

// A receiver that answers 4xx other than 408/429 rejects this payload; asking again will not help.
function isRetryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/**
 * POSTs `body` (JSON text) to `url` once, through `guard`: a target it refuses fails for good,
 * nothing sent. Throws only when `stop` aborts it (the server is closing: the attempt has no outcome).
 */
export async function attemptDelivery(
  url: string,
  body: string,
  timeoutMs: number,
  stop: AbortSignal,
  guard: TargetGuard,
): Promise<AttemptResult> {
  const refused = guard.refusal(url);
  if (refused !== undefined) return { ok: false, error: refused.message, retryable: false };
  try {
    const response = await request(url, {
      dispatcher: guard.dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'compliance-evidence-webhooks' },
      body,
      signal: AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]),
    });
    await response.body.dump();
    if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true };
    return { ok: false, error: `HTTP ${response.statusCode}`, retryable: isRetryable(response.statusCode) };
  } catch (error) {
    if (stop.aborted) throw error;
    if (error instanceof RefusedTarget) return { ok: false, error: error.message, retryable: false };
    return { ok: false, error: error instanceof Error ? error.message : String(error), retryable: true };
  }
}
