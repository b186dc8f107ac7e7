// From a report (or a policy change) to a recorded snapshot and its consequences, inside the
// request's one transaction: what runs → where it comes from → what the policies say → whether
// the rules call for a snapshot → the snapshot, environment events, trail events and the webhook
// deliveries it stores for the deliverer to make once the transaction has committed.
import type { ReportType } from '../../../shared/reports/check.ts';
import { runningArtifactsOf, type RunningArtifact } from '../rules/runningArtifacts.ts';
import type { SnapshotArtifact } from '../rules/snapshotArtifacts.ts';
import { nextSnapshotOf, type NextSnapshot, type SnapshotEvent } from '../rules/snapshots.ts';
import { htmlUrl } from '../views/urls.ts';
import type { OutboxDelivery } from '../store/outbox.ts';
import { deliveriesFor, type Trigger } from '../delivery/notifications.ts';
import type { Environment } from '../store/environments.ts';
import type { Org } from '../store/orgs.ts';
import type { ServiceDeps } from './index.ts';
import { evaluatedArtifactsOf, policiesOf, type Policies } from './policyVerdicts.ts';
import { latestSnapshotOf, newSnapshotOf } from './snapshotDocuments.ts';

/** What a snapshot is made from: the store of the request's transaction and the base of html_url values. */
export type SnapshotDeps = Pick<ServiceDeps, 'store' | 'publicUrl'>;

/** `applied_policies` of a snapshot (reference §5.5). */
function appliedPoliciesView(policies: Policies, artifacts: readonly SnapshotArtifact[]) {
  return policies.current.map((policy, position) => ({
    id: String(policy.id),
    name: policy.name,
    version: policy.version,
    policy_dump: policies.applied[position].policy,
    failing_artifacts: artifacts
      .filter(
        (artifact) =>
          artifact.annotation.now > 0 &&
          !policies.allowed.has(artifact.fingerprint) &&
          artifact.policy_decisions.some(
            (decision) => decision.policy_name === policy.name && decision.status !== 'COMPLIANT',
          ),
      )
      .map((artifact) => artifact.fingerprint),
  }));
}

const EVENT_TRIGGERS: Record<SnapshotEvent['type'], Trigger> = {
  started: 'ON_STARTED_ARTIFACT',
  exited: 'ON_EXITED_ARTIFACT',
  changed: 'ON_CHANGED_ARTIFACT',
};

function artifactPayload(artifact: SnapshotArtifact) {
  return {
    name: artifact.name,
    fingerprint: artifact.fingerprint,
    compliant: artifact.compliant,
    instances: artifact.annotation.now,
    was: artifact.annotation.was,
    reasons_for_incompliance: artifact.reasons_for_incompliance,
    flows: artifact.flows.map((flow) => ({
      flow_name: flow.flow_name,
      trail_name: flow.trail_name,
      git_commit: flow.git_commit,
      commit_url: flow.commit_url,
      html_url: flow.html_url,
    })),
  };
}

/** ON_ALLOWED_ARTIFACT: an artifact runs in the environment because it is allowed there. */
async function allowedDeliveries(
  deps: SnapshotDeps,
  org: Org,
  environmentName: string,
  environmentPayload: object,
  artifact: SnapshotArtifact,
): Promise<OutboxDelivery[]> {
  return await deliveriesFor(deps, org, 'environment', environmentName, 'ON_ALLOWED_ARTIFACT', {
    event_type: 'allowed',
    description: `${artifact.name} runs as an allowed artifact`,
    environment: environmentPayload,
    artifact: artifactPayload(artifact),
  });
}

/** Writes the snapshot and its consequences; returns the webhook deliveries it calls for. */
async function recordSnapshot(
  deps: SnapshotDeps,
  org: Org,
  environment: Environment,
  next: NextSnapshot,
  policies: Policies,
  previousCompliant: boolean | undefined,
  now: number,
): Promise<OutboxDelivery[]> {
  const { store } = deps;
  const index = await store.snapshots.record(
    environment.id,
    newSnapshotOf(next, appliedPoliciesView(policies, next.artifacts)),
    now,
  );
  const environmentPayload = {
    name: environment.name,
    type: environment.type,
    snapshot_index: index,
    snapshot_compliant: next.compliant,
    html_url: htmlUrl.environment(deps.publicUrl(), org.name, environment.name),
    snapshot_html_url: `${htmlUrl.environment(deps.publicUrl(), org.name, environment.name)}/snapshots/${index}`,
  };
  const deliveries: OutboxDelivery[] = [];
  for (const event of next.events) {
    if (event.type !== 'changed') {
      const type = event.type === 'started' ? 'artifact_started_running' : 'artifact_stopped_running';
      for (const flow of event.artifact.flows) {
        await store.provenance.addTrailEvent(
          org.id,
          flow.flow_name,
          flow.trail_name,
          type,
          {
            artifact_fingerprint: event.artifact.fingerprint,
            environment_id: String(environment.id),
            environment_name: environment.name,
            snapshot_index: index,
            template_reference_name: flow.template_reference_name,
          },
          now,
        );
      }
    }
    deliveries.push(
      ...(await deliveriesFor(deps, org, 'environment', environment.name, EVENT_TRIGGERS[event.type], {
        event_type: event.type,
        description: event.description,
        environment: environmentPayload,
        artifact: artifactPayload(event.artifact),
      })),
    );
    if (event.type === 'started' && policies.allowed.has(event.artifact.fingerprint)) {
      deliveries.push(...(await allowedDeliveries(deps, org, environment.name, environmentPayload, event.artifact)));
    }
  }
  if (previousCompliant !== undefined && previousCompliant !== next.compliant) {
    deliveries.push(
      ...(await deliveriesFor(
        deps,
        org,
        'environment',
        environment.name,
        next.compliant ? 'ON_COMPLIANT_ENV' : 'ON_NON_COMPLIANT_ENV',
        {
          event_type: 'compliance_changed',
          description: `Environment became ${next.compliant ? 'compliant' : 'non-compliant'}`,
          environment: environmentPayload,
          previous_compliant: previousCompliant,
        },
      )),
    );
  }
  return deliveries;
}

/**
 * Takes a validated report into the environment: it always counts as reported; it makes a
 * snapshot only when the snapshot rules say the environment changed.
 */
export async function ingestReport(
  deps: SnapshotDeps,
  org: Org,
  environment: Environment,
  type: ReportType,
  body: unknown,
  now: number,
): Promise<OutboxDelivery[]> {
  const { store } = deps;
  await store.environments.markReported(environment.id, now);
  const policies = await policiesOf(deps, environment.id);
  const evaluated = await evaluatedArtifactsOf(deps, org, runningArtifactsOf(type, body), policies, now);
  const latest = await latestSnapshotOf(store, environment.id);
  const next = nextSnapshotOf(latest ?? null, evaluated, policies.applied.length);
  if (next === null) return [];
  const deliveries = await recordSnapshot(deps, org, environment, next, policies, latest?.compliant, now);
  for (const logical of await store.environments.logicalIncluding(environment.id))
    deliveries.push(...(await recordCombinedSnapshot(deps, org, logical, now)));
  return deliveries;
}

/** The artifacts running now in an environment, by its latest snapshot. */
async function runningNowIn(deps: SnapshotDeps, environmentId: number): Promise<RunningArtifact[]> {
  const latest = await latestSnapshotOf(deps.store, environmentId);
  if (latest === undefined) return [];
  const positions = latest.states.flatMap((state, position) => (state.instances > 0 ? [position] : []));
  return latest.artifactsAt(positions).map(runningOf);
}

/** One entry per artifact: the same artifact running in several environments is one, with all its instances. */
function mergedRunning(groups: ReadonlyArray<{ environment: string; running: RunningArtifact[] }>): RunningArtifact[] {
  const byKey = new Map<string, RunningArtifact>();
  for (const { environment, running } of groups) {
    for (const artifact of running) {
      // Pod names are per cluster: keep them apart by the environment they run in.
      const pods =
        artifact.pods === null
          ? null
          : Object.fromEntries(
              Object.entries(artifact.pods).map(([pod, instance]) => [`${environment}/${pod}`, instance]),
            );
      const key = `${artifact.fingerprint}\u0000${artifact.name}`;
      const seen = byKey.get(key);
      if (seen === undefined) {
        byKey.set(key, { ...artifact, pods, creationTimestamps: [...artifact.creationTimestamps] });
        continue;
      }
      seen.creationTimestamps.push(...artifact.creationTimestamps);
      if (pods !== null) seen.pods = { ...(seen.pods ?? {}), ...pods };
      if (artifact.ecsContext !== null) seen.ecsContext = [...(seen.ecsContext ?? []), ...artifact.ecsContext];
      if (artifact.instanceContext !== null)
        seen.instanceContext = [...(seen.instanceContext ?? []), ...artifact.instanceContext];
    }
  }
  return [...byKey.values()];
}

/**
 * A logical environment's snapshot: what runs now in all the physical environments it includes,
 * judged under the logical environment's own policies and allowlist, and recorded by the same
 * snapshot rules as any report, so it changes only when what runs there changes.
 */
export async function recordCombinedSnapshot(
  deps: SnapshotDeps,
  org: Org,
  logical: Environment,
  now: number,
): Promise<OutboxDelivery[]> {
  const { store } = deps;
  const groups: Array<{ environment: string; running: RunningArtifact[] }> = [];
  for (const name of logical.included) {
    const physical = await store.environments.byName(org.id, name);
    if (physical !== undefined)
      groups.push({ environment: physical.name, running: await runningNowIn(deps, physical.id) });
  }
  const policies = await policiesOf(deps, logical.id);
  const evaluated = await evaluatedArtifactsOf(deps, org, mergedRunning(groups), policies, now);
  const latest = await latestSnapshotOf(store, logical.id);
  const next = nextSnapshotOf(latest ?? null, evaluated, policies.applied.length);
  if (next === null) return [];
  await store.environments.markReported(logical.id, now);
  return await recordSnapshot(deps, org, logical, next, policies, latest?.compliant, now);
}

function runningOf(artifact: SnapshotArtifact): RunningArtifact {
  return {
    fingerprint: artifact.fingerprint,
    name: artifact.name,
    creationTimestamps: artifact.creationTimestamp,
    pods: artifact.pods,
    ecsContext: artifact.ecs_context,
    instanceContext: artifact.instance_context ?? null,
  };
}

/**
 * Attaches, detaches or replaces an environment's policies; when that changes the set, the latest
 * snapshot is re-evaluated into a new one (reference §4.4).
 */
export async function changePolicies(
  deps: SnapshotDeps,
  org: Org,
  environment: Environment,
  policyIds: readonly number[],
  mode: 'attach' | 'detach' | 'replace',
  user: string,
  now: number,
): Promise<OutboxDelivery[]> {
  const { store } = deps;
  const before = (await store.policies.attachedTo(environment.id)).map((policy) => policy.id);
  const attach = mode === 'detach' ? [] : policyIds.filter((id) => !before.includes(id));
  const detach =
    mode === 'attach'
      ? []
      : mode === 'detach'
        ? policyIds.filter((id) => before.includes(id))
        : before.filter((id) => !policyIds.includes(id));
  if (attach.length === 0 && detach.length === 0) return [];
  await store.policies.detach(environment.id, environment.name, detach, user, now);
  await store.policies.attach(environment.id, environment.name, attach, user, now);
  return (await reevaluateLatest(deps, org, environment, () => true, now)).deliveries;
}

/**
 * The latest snapshot's running artifacts judged again under the environment's current policies
 * and allowlist, recorded as a new snapshot (reference §4.4), when `wanted` says the running set
 * calls for it. Nothing happens for an environment without snapshots.
 */
async function reevaluateLatest(
  deps: SnapshotDeps,
  org: Org,
  environment: Environment,
  wanted: (running: readonly RunningArtifact[]) => boolean,
  now: number,
): Promise<{ deliveries: OutboxDelivery[]; next: NextSnapshot | undefined; policies: Policies | undefined }> {
  const { store } = deps;
  const latest = await latestSnapshotOf(store, environment.id);
  if (latest === undefined) return { deliveries: [], next: undefined, policies: undefined };
  const runningPositions = latest.states.flatMap((state, position) => (state.instances > 0 ? [position] : []));
  const running = latest.artifactsAt(runningPositions).map(runningOf);
  if (!wanted(running)) return { deliveries: [], next: undefined, policies: undefined };
  const policies = await policiesOf(deps, environment.id);
  const next = nextSnapshotOf(
    latest,
    await evaluatedArtifactsOf(deps, org, running, policies, now),
    policies.applied.length,
    true,
  )!;
  return {
    deliveries: await recordSnapshot(deps, org, environment, next, policies, latest.compliant, now),
    next,
    policies,
  };
}

/** The environment's latest snapshot judged again, now that a policy it uses was archived or unarchived. */
export async function reevaluateEnvironment(
  deps: SnapshotDeps,
  org: Org,
  environment: Environment,
  now: number,
): Promise<OutboxDelivery[]> {
  return (await reevaluateLatest(deps, org, environment, () => true, now)).deliveries;
}

/**
 * Allows an artifact in an environment (reference §2.17). When it runs there now, the latest
 * snapshot is judged again, so the environment's compliance says so at once, and
 * ON_ALLOWED_ARTIFACT fires for it.
 */
export async function allowArtifact(
  deps: SnapshotDeps,
  org: Org,
  environment: Environment,
  entry: { artifactFingerprint: string; artifactName: string; description: string; createdBy: string },
  now: number,
): Promise<OutboxDelivery[]> {
  await deps.store.environments.allow(environment.id, entry, now);
  const runs = (running: readonly RunningArtifact[]) =>
    running.some((artifact) => artifact.fingerprint === entry.artifactFingerprint);
  const { deliveries, next } = await reevaluateLatest(deps, org, environment, runs, now);
  const allowed = next?.artifacts.find(
    (artifact) => artifact.fingerprint === entry.artifactFingerprint && artifact.annotation.now > 0,
  );
  if (next === undefined || allowed === undefined) return deliveries;
  const environmentUrl = htmlUrl.environment(deps.publicUrl(), org.name, environment.name);
  const environmentPayload = {
    name: environment.name,
    type: environment.type,
    snapshot_compliant: next.compliant,
    html_url: environmentUrl,
  };
  return [...deliveries, ...(await allowedDeliveries(deps, org, environment.name, environmentPayload, allowed))];
}
