// The deliverer each running server has. It claims due deliveries from the outbox
// (store/outbox.ts), makes one attempt of each, then either deletes the row and records the
// outcome on its action in one transaction, or stores when the next attempt is due and gives the
// row back. Rows live in the database, so a delivery outlives the instance that wrote it: another
// instance, or this one restarted, makes it. Each row is claimed by one deliverer at a time, and
// only the oldest row of a lane (one URL of one action), so a lane's deliveries go out in order.
//
// Tenants apart: each org has a few attempts in flight at most, and each receiving server (target)
// of an org fewer, so one org's slow or dead receivers hold back only that org's other deliveries
// to them, never another org's (nor its own to other receivers); a claim takes each org's oldest
// delivery before any org's second.
//
// Wake-ups: the instance whose request stored deliveries wakes its deliverer as soon as they are
// committed; otherwise a deliverer looks again when the next stored attempt is due, and at least
// every POLL_MS (rows another instance stored, claims of a killed instance that expired).
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/index.ts';
import type { ClaimedDelivery } from '../store/outbox.ts';
import { targetGuard } from './targetGuard.ts';
import { attemptDelivery, retryDelayMs, type RetryPolicy } from './webhooks.ts';

export interface DeliveryOutcome {
  orgId: number;
  actionNumber: number;
  ok: boolean;
  /** Epoch seconds of the last attempt. */
  timestamp: number;
  attempts: number;
  /** Why the last attempt failed. */
  error?: string;
}

export interface DelivererOptions {
  store: Store;
  policy: RetryPolicy;
  /** Called with a delivery's final outcome, in the transaction that deletes its row (a concurrent one: writes only). */
  onOutcome: (tx: Store, outcome: DeliveryOutcome) => Promise<void>;
  /** The longest wait between two looks at the outbox. */
  pollMs?: number;
  /** Loopback, private, link-local... targets too (`--allow-private-webhooks`); else public addresses only. */
  allowPrivateTargets: boolean;
}

export interface Deliverer {
  /** Deliveries were just committed: look now. */
  wake(): void;
  /** Stops (once, however often called): attempts in flight are abandoned and their rows given back, no timer is left. */
  close(): Promise<void>;
}

const POLL_MS = 1_000;
/** Attempts in flight per instance at most (each of a different lane): room for 32 orgs at their limit. */
const IN_FLIGHT = 256;
/** Attempts in flight per org at most: an org whose receivers all hang holds no more. */
const PER_ORG = 8;
/** Attempts in flight per receiving server of an org at most: one that hangs leaves the org room for the others. */
const PER_TARGET = 2;
/**
 * A claim covers one attempt (at most the policy's timeout) and recording its result; it lasts a
 * few timeouts, so only an instance that died (or stalled that long) loses its claims to another.
 */
const CLAIM_TIMEOUTS = 3;
const FINISH = { concurrent: true };

export function startDeliverer(options: DelivererOptions): Deliverer {
  const { store, policy } = options;
  const pollMs = options.pollMs ?? POLL_MS;
  const claimSeconds = (CLAIM_TIMEOUTS * policy.timeoutMs) / 1000;
  const owner = randomUUID();
  const stop = new AbortController();
  const guard = targetGuard(options.allowPrivateTargets);
  /** Each lane being delivered, with the delivery it began with (its org and target). */
  const inFlight = new Map<Promise<void>, ClaimedDelivery>();
  let pass: Promise<void> | undefined;
  let wokenDuringPass = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;

  /** Looks at the outbox at `at` (epoch ms), unless a look is planned sooner. */
  function lookAt(at: number): void {
    if (stop.signal.aborted || (timer !== undefined && timerAt <= at)) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Infinity;
        look(true);
      },
      Math.max(0, at - Date.now()),
    );
  }

  /** One pass over the outbox; `checkFirst` reads whether anything is due before claiming (a claim writes). */
  function look(checkFirst: boolean): void {
    if (stop.signal.aborted) return;
    if (pass !== undefined) {
      wokenDuringPass = true;
      return;
    }
    pass = claimDue(checkFirst)
      // The database out of reach, say: the next look tries again.
      .catch(() => undefined)
      .finally(() => {
        pass = undefined;
        if (wokenDuringPass) {
          wokenDuringPass = false;
          look(false);
        } else lookAt(Date.now() + pollMs);
      });
  }

  async function claimDue(checkFirst: boolean): Promise<void> {
    for (;;) {
      const room = IN_FLIGHT - inFlight.size;
      // A finished attempt looks again.
      if (room <= 0 || stop.signal.aborted) return;
      const now = Date.now() / 1000;
      if (checkFirst) {
        const due = await store.outbox.nextDue(now);
        if (due === undefined) return;
        if (due > now) {
          lookAt(due * 1000);
          return;
        }
      }
      const claimed = await store.outbox.claim(owner, now + claimSeconds, now, {
        total: room,
        perOrg: PER_ORG,
        perTarget: PER_TARGET,
        inFlight: [...inFlight.values()],
      });
      for (const delivery of claimed) begin(delivery);
      // Fewer than asked: nothing else is due, or what is belongs to orgs and targets at their limit.
      if (claimed.length < room) return;
    }
  }

  /** Delivers `first`, then the deliveries of its lane claimed as each one before them finishes. */
  async function deliverLane(first: ClaimedDelivery): Promise<void> {
    for (let delivery: ClaimedDelivery | undefined = first; delivery !== undefined;) delivery = await attempt(delivery);
  }

  function begin(delivery: ClaimedDelivery): void {
    const running: Promise<void> = deliverLane(delivery)
      // Closing, or the database out of reach: the row stays claimed until given back or expired.
      .catch(() => undefined)
      .finally(() => {
        inFlight.delete(running);
        look(true);
      });
    inFlight.set(running, delivery);
  }

  /** One attempt and its bookkeeping; the next delivery of the lane, claimed, when this one is done with. */
  async function attempt(delivery: ClaimedDelivery): Promise<ClaimedDelivery | undefined> {
    const result = await attemptDelivery(delivery.url, delivery.payload, policy.timeoutMs, stop.signal, guard);
    const attempts = delivery.attempts + 1;
    const now = Date.now() / 1000;
    // The bookkeeping only writes (a concurrent transaction): on PostgreSQL it is committed with
    // the attestations and other such writes of the moment, not under the write lock taken whole.
    if (!result.ok && result.retryable && attempts < policy.attempts) {
      const next = now + retryDelayMs(policy, attempts) / 1000;
      await store.transaction(() => store.outbox.retryLater(delivery.id, owner, attempts, next), FINISH);
      lookAt(next * 1000);
      return undefined;
    }
    const outcome: DeliveryOutcome = {
      orgId: delivery.orgId,
      actionNumber: delivery.actionNumber,
      ok: result.ok,
      timestamp: now,
      attempts,
    };
    if (!result.ok) outcome.error = result.error;
    // Recorded even if this claim expired meanwhile and another deliverer made the delivery again:
    // this POST was made all the same.
    await store.transaction(async (tx) => {
      await options.onOutcome(tx, outcome);
      await tx.outbox.finish(delivery, owner, now + claimSeconds, now);
    }, FINISH);
    return stop.signal.aborted ? undefined : await store.outbox.claimedInLane(delivery, owner);
  }

  let closing: Promise<void> | undefined;
  look(true);
  return {
    wake: () => look(false),
    close() {
      closing ??= (async () => {
        stop.abort(new Error('webhook deliverer closed'));
        clearTimeout(timer);
        timer = undefined;
        await pass;
        while (inFlight.size > 0) await Promise.all([...inFlight.keys()]);
        await guard.close();
        // Claims of abandoned attempts go back, so the next instance to look takes them at once.
        await store.transaction(() => store.outbox.releaseAll(owner)).catch(() => undefined);
      })();
      return closing;
    },
  };
}
