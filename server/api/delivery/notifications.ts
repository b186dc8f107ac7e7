// Actions' webhooks: which deliveries an event calls for (looked up inside the request's
// transaction, so they match what was committed), and one sender per running app that delivers
// them after the response, recording each outcome on its action.
import type { AppContext } from '../http/context.ts';
import { nowSeconds } from '../clock.ts';
import { htmlUrl } from '../views/urls.ts';
import { createWebhookSender, type WebhookDelivery, type WebhookSender } from './webhooks.ts';
import type { Org } from '../store/orgs.ts';

import {
  environmentTriggers as ENVIRONMENT_TRIGGERS,
  flowTriggers as FLOW_TRIGGERS,
} from '../../../shared/schemas/actionParts.ts';

/** The triggers the action bodies accept (reference §2.12), written once in their shared schema parts. */
export { ENVIRONMENT_TRIGGERS, FLOW_TRIGGERS };

export type Trigger = (typeof ENVIRONMENT_TRIGGERS)[number] | (typeof FLOW_TRIGGERS)[number];

const senders = new WeakMap<AppContext, WebhookSender>();

// The backoff can be shortened for tests that watch a failing receiver give up.
function backoffMs(): number | undefined {
  const configured = Number(process.env.CEV_WEBHOOK_BACKOFF_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : undefined;
}

function senderOf(context: AppContext): WebhookSender {
  let sender = senders.get(context);
  if (sender === undefined) {
    sender = createWebhookSender({
      backoffMs: backoffMs(),
      onOutcome: async (outcome) => {
        const org = await context.store.orgs.byName(outcome.org);
        if (org === undefined) return;
        await context.store.transaction(async (tx) =>
          tx.actions.recordOutcome(org.id, outcome.actionNumber, outcome.ok, outcome.timestamp),
        );
      },
    });
    senders.set(context, sender);
  }
  return sender;
}

/**
 * The deliveries one event calls for: every webhook target of every live action of the org that
 * watches this environment or flow for this trigger. Each payload names its trigger and action.
 */
export async function deliveriesFor(
  context: AppContext,
  org: Org,
  kind: 'environment' | 'flow',
  resourceName: string,
  trigger: Trigger,
  payload: Record<string, unknown>,
): Promise<WebhookDelivery[]> {
  const deliveries: WebhookDelivery[] = [];
  for (const action of await context.store.actions.triggered(org.id, kind, resourceName, trigger)) {
    for (const target of action.targets) {
      if (target.type !== 'WEBHOOK' || typeof target.webhook !== 'string') continue;
      deliveries.push({
        org: org.name,
        actionNumber: action.number,
        url: target.webhook,
        payload: {
          trigger,
          org: org.name,
          action: { name: action.name, number: action.number },
          timestamp: nowSeconds(),
          ...payload,
        },
      });
    }
  }
  return deliveries;
}

/** Hands deliveries to the sender; call after the transaction that found them has committed. */
export function dispatch(context: AppContext, deliveries: readonly WebhookDelivery[]): void {
  if (deliveries.length === 0) return;
  const sender = senderOf(context);
  for (const delivery of deliveries) sender.send(delivery);
}

/** Stops delivering (server shutdown): pending retries are abandoned. */
export async function closeNotifications(context: AppContext): Promise<void> {
  await senders.get(context)?.close();
  senders.delete(context);
}

function trailPayload(context: AppContext, org: Org, flowName: string, trailName: string) {
  return {
    flow: { name: flowName, html_url: htmlUrl.flow(context.publicUrl(), org.name, flowName) },
    trail: { name: trailName, html_url: htmlUrl.trail(context.publicUrl(), org.name, flowName, trailName) },
  };
}

/** ON_STARTED_TRAIL, after the trail was begun (committed). */
export async function notifyTrailStarted(
  context: AppContext,
  org: Org,
  flowName: string,
  trailName: string,
): Promise<void> {
  dispatch(
    context,
    await deliveriesFor(context, org, 'flow', flowName, 'ON_STARTED_TRAIL', {
      event_type: 'trail_started',
      description: `Trail '${trailName}' begun in flow '${flowName}'`,
      ...trailPayload(context, org, flowName, trailName),
    }),
  );
}

/** ON_ATTESTATION, after an attestation was recorded (committed). */
export async function notifyAttestation(
  context: AppContext,
  org: Org,
  attestation: {
    id: string;
    name: string;
    type: string;
    isCompliant: boolean;
    artifactFingerprint: string | null;
    flowName: string;
    trailName: string;
  },
): Promise<void> {
  dispatch(
    context,
    await deliveriesFor(context, org, 'flow', attestation.flowName, 'ON_ATTESTATION', {
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
    }),
  );
}

/** ON_ATTESTED_PROVENANCE, after an artifact was attested to a trail for the first time (committed). */
export async function notifyArtifactAttested(
  context: AppContext,
  org: Org,
  artifact: {
    flowName: string;
    trailName: string;
    fingerprint: string;
    filename: string;
    templateReferenceName: string;
    gitCommit: string;
  },
): Promise<void> {
  dispatch(
    context,
    await deliveriesFor(context, org, 'flow', artifact.flowName, 'ON_ATTESTED_PROVENANCE', {
      event_type: 'artifact_attested',
      description: `Artifact '${artifact.filename}' attested in trail '${artifact.trailName}'`,
      ...trailPayload(context, org, artifact.flowName, artifact.trailName),
      artifact: {
        name: artifact.filename,
        fingerprint: artifact.fingerprint,
        template_reference_name: artifact.templateReferenceName,
        git_commit: artifact.gitCommit,
      },
    }),
  );
}
