// Snapshots (reference §2.7, §5.5), environment events (§5.6) and the snapshot diff (§5.7) as the
// API answers them.
import type { EnvironmentDiff, EnvironmentEvent, Snapshot, SnapshotSummary } from '../../../shared/contract/types.ts';
import type { ArtifactProvenance, SnapshotArtifact } from '../rules/snapshotArtifacts.ts';
import type { Environment } from '../store/environments.ts';
import type {
  EnvironmentEvent as EventRow,
  SnapshotSummary as SummaryRow,
  StoredSnapshot,
} from '../store/snapshots.ts';
import { commitInfoView } from './commitInfo.ts';
import { htmlUrl } from './urls.ts';

/** A stored snapshot with its documents as the snapshot rules wrote them. */
export interface ReadSnapshot extends Omit<StoredSnapshot, 'artifacts' | 'appliedPolicies'> {
  artifacts: SnapshotArtifact[];
  appliedPolicies: Snapshot['applied_policies'];
}

/** A snapshot of a list: how long it lasted, up to `now` for the current one. */
export function snapshotSummaryView(snapshot: SummaryRow, now: number): SnapshotSummary {
  return {
    index: snapshot.index,
    from: snapshot.startedAt,
    to: snapshot.endedAt,
    compliant: snapshot.compliant,
    duration: (snapshot.endedAt === 0 ? now : snapshot.endedAt) - snapshot.startedAt,
  };
}

type SnapshotArtifactAnswer = Snapshot['artifacts'][number];
type SnapshotFlowAnswer = SnapshotArtifactAnswer['flows'][number];

function textOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** ECS: the first task that runs the artifact, named as the hosted answer names it; null for other types. */
function ecsContextOf(tasks: SnapshotArtifact['ecs_context']): SnapshotArtifactAnswer['ecs_context'] {
  const first = tasks?.[0];
  if (first === undefined) return null;
  return {
    task_arn: textOf(first.taskArn) ?? '',
    cluster_name: textOf(first.cluster_name),
    service_name: textOf(first.service_name),
  };
}

function flowView(flow: ArtifactProvenance): SnapshotFlowAnswer {
  return {
    flow_name: flow.flow_name,
    trail_name: flow.trail_name,
    template_reference_name: flow.template_reference_name,
    git_commit: flow.git_commit,
    commit_url: flow.commit_url,
    git_commit_info: commitInfoView(flow.git_commit_info),
    build_url: flow.build_url,
    html_url: flow.html_url,
    flow_html_url: flow.flow_html_url,
    repo_name: flow.repo_name,
    deployment_diff: flow.deployment_diff ?? null,
    commit_lead_time: flow.commit_lead_time ?? null,
  };
}

/** A snapshot's artifact as recorded, its ECS tasks as an object and every instance's context listed. */
function snapshotArtifactView(artifact: SnapshotArtifact): SnapshotArtifactAnswer {
  const { ecs_context: tasks, instance_context: instances, flows, ...recorded } = artifact;
  const view: SnapshotArtifactAnswer = {
    ...recorded,
    ecs_context: ecsContextOf(tasks),
    flows: flows.map(flowView),
    deployment_diff: artifact.deployment_diff ?? null,
    commit_lead_time: artifact.commit_lead_time ?? null,
  };
  const contexts = instances ?? tasks;
  if (contexts !== undefined && contexts !== null) view.instance_context = contexts;
  return view;
}

export function snapshotView(
  host: string,
  orgName: string,
  environment: Environment,
  snapshot: ReadSnapshot,
): Snapshot {
  const next = snapshot.index < environment.snapshotCount ? snapshot.endedAt : null;
  return {
    index: snapshot.index,
    is_latest: snapshot.index === environment.snapshotCount,
    next_snapshot_timestamp: next,
    timestamp: snapshot.startedAt,
    from: snapshot.startedAt,
    to: snapshot.endedAt,
    type: environment.type,
    compliant: snapshot.compliant,
    artifact_compliance_count: snapshot.complianceCount,
    event_counts: snapshot.eventCounts,
    html_url: `${htmlUrl.environment(host, orgName, environment.name)}/snapshots/${snapshot.index}`,
    applied_policies: snapshot.appliedPolicies,
    artifacts: snapshot.artifacts.map(snapshotArtifactView),
  };
}

export function environmentEventView(
  host: string,
  orgName: string,
  environmentName: string,
  event: EventRow,
): EnvironmentEvent {
  return {
    environment_name: environmentName,
    snapshot_index: event.snapshotIndex,
    type: event.type,
    artifact_name: event.artifactName,
    sha256: event.fingerprint,
    description: event.description,
    reported_at: event.reportedAt,
    pipeline: event.pipeline,
    deployments: [],
    flows: event.flowNames.map((flowName, position) => ({
      flow_name: flowName,
      trail_name: event.trailNames[position] ?? '',
    })),
    repo_names: event.repoNames,
    git_commit: event.gitCommit,
    artifact_compliance: event.artifactCompliance,
    snapshot_compliance: event.snapshotCompliance,
    code_diff: null,
    _links: {
      snapshot: {
        href: `${host}/api/v2/snapshots/${encodeURIComponent(orgName)}/${encodeURIComponent(environmentName)}/${event.snapshotIndex}`,
      },
    },
  };
}

type DiffArtifact = EnvironmentDiff['changed']['artifacts'][number];

function diffArtifactOf(artifact: SnapshotArtifact): DiffArtifact {
  const out: DiffArtifact = {
    fingerprint: artifact.fingerprint,
    name: artifact.name,
    most_recent_timestamp: artifact.creationTimestamp.length === 0 ? null : Math.max(...artifact.creationTimestamp),
    flow: artifact.flow_name,
    commit_url: artifact.commit_url,
    instance_count: artifact.annotation.now,
  };
  if (artifact.pods !== null) out.pods = artifact.pods;
  return out;
}

/** What runs in one side of a diff: its `env#N` and its running artifacts by fingerprint (else name). */
export interface DiffSide {
  id: string;
  running: ReadonlyMap<string, SnapshotArtifact>;
}

/** What runs only in the first, only in the second, in both with other instance counts, and in both alike. */
export function environmentDiffView(first: DiffSide, second: DiffSide): EnvironmentDiff {
  const onlyFirst: DiffArtifact[] = [];
  const changed: DiffArtifact[] = [];
  const same: DiffArtifact[] = [];
  for (const [key, artifact] of first.running) {
    const other = second.running.get(key);
    if (other === undefined) onlyFirst.push(diffArtifactOf(artifact));
    else if (other.annotation.now !== artifact.annotation.now) {
      changed.push({
        ...diffArtifactOf(other),
        s1_instance_count: artifact.annotation.now,
        s2_instance_count: other.annotation.now,
      });
    } else same.push(diffArtifactOf(other));
  }
  const onlySecond = [...second.running]
    .filter(([key]) => !first.running.has(key))
    .map(([, artifact]) => diffArtifactOf(artifact));
  return {
    snappish1: { snapshot_id: first.id, artifacts: onlyFirst },
    snappish2: { snapshot_id: second.id, artifacts: onlySecond },
    changed: { artifacts: changed },
    'not-changed': { artifacts: same },
  };
}
