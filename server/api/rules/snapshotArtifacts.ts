// The artifact objects of a snapshot (reference §5.3): what runs (from the report), where it comes
// from (provenance from the store), what the policies say (from the shared evaluator), and how it
// compares with the previous snapshot (annotation from the diff).
import type { PolicyDecision } from '../../../shared/compliance/index.ts';
import type { DeployedFlow, DeploymentDiff } from './deployments.ts';
import type { RunningArtifact } from './runningArtifacts.ts';
import type { Annotation, ArtifactState } from './snapshotDiff.ts';

/** One trail in which a fingerprint was attested. */
export interface ArtifactProvenance extends DeployedFlow {
  build_url: string;
  html_url: string;
  flow_html_url: string;
  repo_name: string;
}

/** The policies' verdict on one artifact; `compliant` is null when the environment has no policy. */
export interface ArtifactVerdict {
  compliant: boolean | null;
  reasons: string[];
  policyDecisions: PolicyDecision[];
}

/** A running artifact with everything a snapshot records about it. */
export interface EvaluatedArtifact extends ArtifactState {
  running: RunningArtifact;
  provenance: ArtifactProvenance[];
  verdict: ArtifactVerdict;
}

/** The stable key of where a fingerprint is attested: sorted `flow/trail`, comma separated. */
function provenanceKeyOf(provenance: readonly ArtifactProvenance[]): string {
  return provenance
    .map((p) => `${p.flow_name}/${p.trail_name}`)
    .sort()
    .join(',');
}

export function evaluatedArtifactOf(
  running: RunningArtifact,
  provenance: ArtifactProvenance[],
  verdict: ArtifactVerdict,
): EvaluatedArtifact {
  return {
    fingerprint: running.fingerprint,
    name: running.name,
    instances: running.creationTimestamps.length,
    compliant: verdict.compliant,
    provenanceKey: provenanceKeyOf(provenance),
    running,
    provenance,
    verdict,
  };
}

/** A snapshot artifact as stored and served; `state` is what later diffs read back. */
export interface SnapshotArtifact {
  name: string;
  fingerprint: string;
  compliant: boolean | null;
  reasons_for_incompliance: string[];
  policy_decisions: PolicyDecision[];
  creationTimestamp: number[];
  pods: RunningArtifact['pods'];
  ecs_context: RunningArtifact['ecsContext'];
  instance_context?: Record<string, unknown>[];
  annotation: Annotation;
  flow_name: string;
  git_commit: string;
  commit_url: string;
  flows: ArtifactProvenance[];
  html_url: string;
  flow_html_url: string;
  deployments: unknown[];
  /** Its first flow's (null in the snapshots recorded before issue 25). */
  deployment_diff: DeploymentDiff | null;
  commit_lead_time: number | null;
}

/** The artifact as the snapshot records it, with its flows as they were deployed (the provenance without deployment facts otherwise). */
export function snapshotArtifactOf(
  artifact: EvaluatedArtifact,
  annotation: Annotation,
  flows: ArtifactProvenance[] = artifact.provenance,
): SnapshotArtifact {
  const first = flows[0];
  const out: SnapshotArtifact = {
    name: artifact.name,
    fingerprint: artifact.fingerprint,
    compliant: artifact.verdict.compliant,
    reasons_for_incompliance: artifact.verdict.reasons,
    policy_decisions: artifact.verdict.policyDecisions,
    creationTimestamp: artifact.running.creationTimestamps,
    pods: artifact.running.pods,
    ecs_context: artifact.running.ecsContext,
    annotation,
    flow_name: first?.flow_name ?? '',
    git_commit: first?.git_commit ?? '',
    commit_url: first?.commit_url ?? '',
    flows,
    html_url: first?.html_url ?? '',
    flow_html_url: first?.flow_html_url ?? '',
    deployments: [],
    deployment_diff: first?.deployment_diff ?? null,
    commit_lead_time: first?.commit_lead_time ?? null,
  };
  if (artifact.running.instanceContext !== null) out.instance_context = artifact.running.instanceContext;
  return out;
}

/** A previous snapshot's artifact recorded again as exited: same facts, no instances. */
export function exitedArtifactOf(previous: SnapshotArtifact, annotation: Annotation): SnapshotArtifact {
  return { ...previous, annotation, creationTimestamp: [], pods: previous.pods === null ? null : {} };
}

/** What a later diff needs of a stored snapshot artifact. */
export function stateOf(artifact: SnapshotArtifact): ArtifactState {
  return {
    fingerprint: artifact.fingerprint,
    name: artifact.name,
    instances: artifact.annotation.now,
    compliant: artifact.compliant,
    provenanceKey: provenanceKeyOf(artifact.flows),
  };
}
