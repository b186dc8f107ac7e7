// Deployments and what runs, as the API answers them (reference §8.4; shapes inferred, see
// shared/contract/deployments.ts).
import type {
  Deployment as DeploymentView,
  DeploymentFrequency,
  LiveArtifact,
  RepoDeploymentStatistics,
} from '../../../shared/contract/types.ts';
import type { Bucket, FrequencyInterval } from '../rules/deploymentFrequency.ts';
import type { SnapshotArtifact } from '../rules/snapshotArtifacts.ts';
import type { Deployment, EnvironmentDeployments } from '../store/deployments.ts';
import { htmlUrl } from './urls.ts';

export function deploymentView(host: string, orgName: string, deployment: Deployment): DeploymentView {
  return {
    environment_name: deployment.environmentName,
    environment_type: deployment.environmentType,
    snapshot_index: deployment.snapshotIndex,
    deployed_at: deployment.deployedAt,
    artifact_name: deployment.artifactName,
    fingerprint: deployment.fingerprint,
    git_commit: deployment.gitCommit,
    flows: deployment.flowNames.map((flowName, position) => ({
      flow_name: flowName,
      trail_name: deployment.trailNames[position] ?? '',
    })),
    repo_names: deployment.repoNames,
    is_compliant: deployment.artifactCompliance,
    html_url: htmlUrl.snapshot(host, orgName, deployment.environmentName, deployment.snapshotIndex),
  };
}

export function deploymentFrequencyView(
  environmentName: string,
  window: { from: number; to: number; interval: FrequencyInterval },
  buckets: readonly Bucket[],
): DeploymentFrequency {
  const total = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  const days = (window.to - window.from) / 86_400;
  return {
    environment_name: environmentName,
    from_timestamp: window.from,
    to_timestamp: window.to,
    interval: window.interval,
    total,
    per_day: days > 0 ? total / days : total,
    buckets: [...buckets],
  };
}

export function repoDeploymentStatisticsView(
  repoName: string,
  window: { from?: number; to?: number },
  environments: readonly EnvironmentDeployments[],
): RepoDeploymentStatistics {
  const firsts = environments.map((environment) => environment.first);
  const lasts = environments.map((environment) => environment.last);
  return {
    repo_name: repoName,
    from_timestamp: window.from ?? null,
    to_timestamp: window.to ?? null,
    total: environments.reduce((sum, environment) => sum + environment.count, 0),
    first_deployed_at: firsts.length === 0 ? null : Math.min(...firsts),
    last_deployed_at: lasts.length === 0 ? null : Math.max(...lasts),
    environments: environments.map((environment) => ({
      environment_name: environment.environmentName,
      deployments: environment.count,
      first_deployed_at: environment.first,
      last_deployed_at: environment.last,
    })),
  };
}

/** A running artifact of a snapshot, by the first of its flows the repo's provenance names. */
export function liveArtifactView(
  host: string,
  orgName: string,
  where: { environmentName: string; environmentType: string; snapshotIndex: number },
  artifact: SnapshotArtifact,
  repoName: string,
  deployedAt: number | null,
): LiveArtifact {
  const flow = artifact.flows.find((candidate) => candidate.repo_name === repoName) ?? artifact.flows[0];
  return {
    environment_name: where.environmentName,
    environment_type: where.environmentType,
    snapshot_index: where.snapshotIndex,
    artifact_name: artifact.name,
    fingerprint: artifact.fingerprint,
    flow_name: flow?.flow_name ?? '',
    trail_name: flow?.trail_name ?? '',
    git_commit: flow?.git_commit ?? artifact.git_commit,
    instances: artifact.creationTimestamp.length,
    is_compliant: artifact.compliant,
    deployed_at: deployedAt,
    html_url: htmlUrl.snapshot(host, orgName, where.environmentName, where.snapshotIndex),
  };
}
