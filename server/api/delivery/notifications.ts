// Actions' webhooks: which deliveries an event calls for, looked up and stored in the outbox inside
// the event's own transaction (so they match what was committed, and a committed event has its
// deliveries stored), and the deliverer each running server starts with its store, which makes
// them and records each outcome on its action (delivery/deliverer.ts).
import { nowSeconds } from '../clock.ts';
import { htmlUrl } from '../views/urls.ts';
import { webhookTargetOf } from '../rules/webhookTargets.ts';
import { startDeliverer, type Deliverer } from './deliverer.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './webhooks.ts';
import type { Action } from '../store/actions.ts';
import type { Store } from '../store/index.ts';
import type { Org } from '../store/orgs.ts';
import type { OutboxDelivery } from '../store/outbox.ts';

import {
  environmentTriggers as ENVIRONMENT_TRIGGERS,
  flowTriggers as FLOW_TRIGGERS,
} from '../../../shared/schemas/actionParts.ts';

/** The triggers the action bodies accept (reference §2.12), written once in their shared schema parts. */
export { ENVIRONMENT_TRIGGERS, FLOW_TRIGGERS };

export type Trigger = (typeof ENVIRONMENT_TRIGGERS)[number] | (typeof FLOW_TRIGGERS)[number];

/**
 * What the triggers need of the running app: its store (they read the actions and write the outbox
 * in the event's own transaction) and the base of html_url values.
 */
export interface DeliveryContext {
  store: Store;
  publicUrl: () => string;
}

/** A positive number of milliseconds from the environment, else undefined. */
function millisecondsFrom(name: string): number | undefined {
  const configured = Number(process.env[name]);
  return Number.isFinite(configured) && configured > 0 ? configured : undefined;
}

// Tests shorten the backoff (to watch a failing receiver give up) and the per-attempt timeout
// (which bounds how long a killed instance's claims hold its deliveries back).
function retryPolicy(): RetryPolicy {
  return {
    ...DEFAULT_RETRY_POLICY,
    backoffMs: millisecondsFrom('CEV_WEBHOOK_BACKOFF_MS') ?? DEFAULT_RETRY_POLICY.backoffMs,
    timeoutMs: millisecondsFrom('CEV_WEBHOOK_TIMEOUT_MS') ?? DEFAULT_RETRY_POLICY.timeoutMs,
  };
}

/**
 * The server's deliverer, started with its store: deliveries stored before, by any instance, go
 * out too. Closing it (server stop) abandons the attempts in flight and leaves their rows for the
 * next instance.
 */
export function startDelivering(store: Store, allowPrivateTargets: boolean): Deliverer {
  return startDeliverer({
    store,
    policy: retryPolicy(),
    allowPrivateTargets,
    onOutcome: (tx, outcome) =>
      tx.actions.recordOutcome(outcome.orgId, outcome.actionNumber, outcome.ok, outcome.timestamp),
  });
}

/**
 * The deliveries one event calls for, stored in the outbox in the current transaction: every
 * webhook target of every live action of the org that watches this environment or flow for this
 * trigger. Each payload names its trigger and action. In a concurrent transaction call it before
 * the transaction's writes: it reads the actions first.
 */
export async function deliveriesFor(
  context: DeliveryContext,
  org: Org,
  kind: 'environment' | 'flow',
  resourceName: string,
  trigger: Trigger,
  payload: Record<string, unknown>,
): Promise<OutboxDelivery[]> {
  const triggered = await context.store.actions.triggered(org.id, kind, resourceName, trigger);
  return await deliveriesOf(context, org, triggered, trigger, payload);
}

/** deliveriesFor with the triggered actions read already (with what the event is about). */
async function deliveriesOf(
  context: DeliveryContext,
  org: Org,
  triggered: readonly Action[],
  trigger: Trigger,
  payload: Record<string, unknown>,
): Promise<OutboxDelivery[]> {
  const deliveries: OutboxDelivery[] = [];
  for (const action of triggered) {
    for (const target of action.targets) {
      if (target.type !== 'WEBHOOK' || typeof target.webhook !== 'string') continue;
      deliveries.push({
        orgId: org.id,
        actionNumber: action.number,
        url: target.webhook,
        target: webhookTargetOf(target.webhook),
        payload: JSON.stringify({
          trigger,
          org: org.name,
          action: { name: action.name, number: action.number },
          timestamp: nowSeconds(),
          ...payload,
        }),
      });
    }
  }
  if (deliveries.length > 0) await context.store.outbox.add(deliveries, Date.now() / 1000);
  return deliveries;
}

/**
 * Wakes the deliverer for deliveries stored by a transaction that has committed (the app's
 * context and the services' dependencies both carry it).
 */
export function deliverSoon(
  context: { deliverer: Pick<Deliverer, 'wake'> },
  deliveries: readonly OutboxDelivery[],
): void {
  if (deliveries.length > 0) context.deliverer.wake();
}

function trailPayload(context: DeliveryContext, org: Org, flowName: string, trailName: string) {
  return {
    flow: { name: flowName, html_url: htmlUrl.flow(context.publicUrl(), org.name, flowName) },
    trail: { name: trailName, html_url: htmlUrl.trail(context.publicUrl(), org.name, flowName, trailName) },
  };
}

/** ON_STARTED_TRAIL, in the transaction that begins the trail. */
export async function trailStartedDeliveries(
  context: DeliveryContext,
  org: Org,
  flowName: string,
  trailName: string,
): Promise<OutboxDelivery[]> {
  return await deliveriesFor(context, org, 'flow', flowName, 'ON_STARTED_TRAIL', {
    event_type: 'trail_started',
    description: `Trail '${trailName}' begun in flow '${flowName}'`,
    ...trailPayload(context, org, flowName, trailName),
  });
}

/**
 * ON_ATTESTATION, in the transaction that records the attestation: `triggered` are the flow's
 * actions with that trigger, read with the attestation's trail (trailPlaceOr404).
 */
export async function attestationDeliveries(
  context: DeliveryContext,
  org: Org,
  triggered: readonly Action[],
  attestation: {
    id: string;
    name: string;
    type: string;
    isCompliant: boolean;
    artifactFingerprint: string | null;
    flowName: string;
    trailName: string;
  },
): Promise<OutboxDelivery[]> {
  return await deliveriesOf(context, org, triggered, 'ON_ATTESTATION', {
    event_type: 'attestation_reported',
    description: `Attestation '${attestation.name}' (${attestation.type}) reported in trail '${attestation.trailName}'`,
    ...trailPayload(context, org, attestation.flowName, attestation.trailName),
    attestation: {
      id: attestation.id,
      name: attestation.name,
      type: attestation.type,
      is_compliant: attestation.isCompliant,
      artifact_fingerprint: attestation.artifactFingerprint,
      html_url: htmlUrl.attestation(
        context.publicUrl(),
        org.name,
        attestation.flowName,
        attestation.trailName,
        attestation.id,
      ),
    },
  });
}

/** ON_ATTESTED_PROVENANCE, in the transaction that attests an artifact to a trail for the first time. */
export async function artifactAttestedDeliveries(
  context: DeliveryContext,
  org: Org,
  artifact: {
    flowName: string;
    trailName: string;
    fingerprint: string;
    filename: string;
    templateReferenceName: string;
    gitCommit: string;
  },
): Promise<OutboxDelivery[]> {
  return await deliveriesFor(context, org, 'flow', artifact.flowName, 'ON_ATTESTED_PROVENANCE', {
    event_type: 'artifact_attested',
    description: `Artifact '${artifact.filename}' attested in trail '${artifact.trailName}'`,
    ...trailPayload(context, org, artifact.flowName, artifact.trailName),
    artifact: {
      name: artifact.filename,
      fingerprint: artifact.fingerprint,
      template_reference_name: artifact.templateReferenceName,
      git_commit: artifact.gitCommit,
    },
  });
}
