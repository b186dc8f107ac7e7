// How each running artifact of a snapshot came to run in the environment (reference §8.5): since
// when it runs there, how long after its commit that was (commit_lead_time), and, per flow that
// built it, which artifact of the same flow and template slot it replaced (deployment_diff).
// A deployment is an artifact starting to run; what it replaced is read from the previous
// snapshot, and the facts stay with the artifact for as long as it keeps running.

/** What an artifact that started replaced, in one of its flows. */
export interface DeploymentDiff {
  /** The repository's comparison of the two commits, when the repository's address is known. */
  diff_url: string | null;
  previous_git_commit: string;
  previous_git_commit_url: string;
  previous_fingerprint: string;
  previous_artifact_name: string;
  /** Its trail's compliance when it last ran here; null when not recorded. */
  previous_artifact_compliance_state: string | null;
  /** Whether it still runs beside the one that replaced it. */
  previous_running: boolean;
  previous_trail_name: string;
  previous_template_reference_name: string;
}

/**
 * One flow of a snapshot artifact, as far as deployments read it. The optional fields are recorded
 * since issue 25 and missing from the snapshots recorded before.
 */
export interface DeployedFlow {
  flow_name: string;
  trail_name: string;
  template_reference_name: string;
  git_commit: string;
  commit_url: string;
  /** The commit as the artifact was reported with it; null without one. */
  git_commit_info?: unknown;
  /** The repository's address; '' when not reported. */
  repo_url?: string;
  /** The trail's compliance when the snapshot was recorded; null when not known. */
  compliance_state?: string | null;
  deployment_diff?: DeploymentDiff | null;
  commit_lead_time?: number | null;
}

/** An artifact of the previous snapshot that a started one may have replaced. */
export interface PreviousArtifact {
  fingerprint: string;
  name: string;
  flows: readonly DeployedFlow[];
  /** Whether it ran in the previous snapshot (else that snapshot recorded it exiting). */
  ranBefore: boolean;
  /** Whether it runs in the new snapshot too. */
  runsNow: boolean;
}

/** When an artifact that starts now began to run there: its earliest instance's start, if any instance says. */
export function startOf(creationTimestamps: readonly number[]): number | undefined {
  const known = creationTimestamps.filter((timestamp) => Number.isFinite(timestamp) && timestamp > 0);
  return known.length === 0 ? undefined : Math.min(...known);
}

/** Seconds from the commit to the artifact running; null without either time. */
export function commitLeadTime(since: number | undefined, gitCommitInfo: unknown): number | null {
  if (since === undefined || gitCommitInfo === null || typeof gitCommitInfo !== 'object') return null;
  const committed = (gitCommitInfo as { timestamp?: unknown }).timestamp;
  return typeof committed === 'number' && Number.isFinite(committed) ? since - committed : null;
}

function sameSlot(a: DeployedFlow, b: DeployedFlow): boolean {
  return a.flow_name === b.flow_name && a.template_reference_name === b.template_reference_name;
}

/**
 * What `flow` of the artifact `fingerprint`, which started now, replaced: the artifact of the same
 * flow and template slot in the previous snapshot, one that ran there before one that was recorded
 * exiting, in the previous snapshot's order; null when there is none.
 */
export function deploymentDiffOf(
  fingerprint: string,
  flow: DeployedFlow,
  previous: readonly PreviousArtifact[],
): DeploymentDiff | null {
  const candidates = previous.filter(
    (artifact) => artifact.fingerprint !== fingerprint && artifact.flows.some((other) => sameSlot(other, flow)),
  );
  const replaced = candidates.find((artifact) => artifact.ranBefore) ?? candidates[0];
  if (replaced === undefined) return null;
  const before = replaced.flows.find((other) => sameSlot(other, flow))!;
  const repoUrl = flow.repo_url ?? '';
  return {
    diff_url:
      repoUrl === '' || before.git_commit === '' || flow.git_commit === ''
        ? null
        : `${repoUrl.replace(/\/+$/, '')}/compare/${before.git_commit}...${flow.git_commit}`,
    previous_git_commit: before.git_commit,
    previous_git_commit_url: before.commit_url,
    previous_fingerprint: replaced.fingerprint,
    previous_artifact_name: replaced.name,
    previous_artifact_compliance_state: before.compliance_state ?? null,
    previous_running: replaced.runsNow,
    previous_trail_name: before.trail_name,
    previous_template_reference_name: before.template_reference_name,
  };
}

/** The flows a continuing artifact keeps: each with the deployment_diff it had, its lead time from `since`. */
export function continuedFlowsOf<F extends DeployedFlow>(
  flows: readonly F[],
  before: readonly DeployedFlow[],
  since: number | undefined,
): F[] {
  return flows.map((flow) => ({
    ...flow,
    commit_lead_time: commitLeadTime(since, flow.git_commit_info),
    deployment_diff:
      before.find((other) => sameSlot(other, flow) && other.trail_name === flow.trail_name)?.deployment_diff ?? null,
  }));
}

/** The flows of an artifact that started now: each with its lead time from `since` and what it replaced. */
export function startedFlowsOf<F extends DeployedFlow>(
  fingerprint: string,
  flows: readonly F[],
  previous: readonly PreviousArtifact[],
  since: number | undefined,
): F[] {
  return flows.map((flow) => ({
    ...flow,
    commit_lead_time: commitLeadTime(since, flow.git_commit_info),
    deployment_diff: deploymentDiffOf(fingerprint, flow, previous),
  }));
}
