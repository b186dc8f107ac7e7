// Builds as the API answers them (reference §8.4; shapes inferred, see shared/contract/deployments.ts):
// a build is an artifact reported into a flow, in the state of its trail.
import type { ComplianceState } from '../../../shared/compliance/status.ts';
import type { Build, BuildStatistics } from '../../../shared/contract/types.ts';
import type { Artifact, ArtifactTally } from '../store/artifacts.ts';
import { htmlUrl } from './urls.ts';

export function buildView(host: string, orgName: string, artifact: Artifact, state: ComplianceState): Build {
  const body = artifact.body as { build_url?: unknown; commit_url?: unknown };
  return {
    flow_name: artifact.flowName,
    trail_name: artifact.trailName,
    artifact_name: artifact.filename,
    fingerprint: artifact.fingerprint,
    template_reference_name: artifact.templateReferenceName,
    git_commit: artifact.gitCommit,
    build_url: typeof body.build_url === 'string' ? body.build_url : '',
    commit_url: typeof body.commit_url === 'string' ? body.commit_url : '',
    repo_name: artifact.repoName,
    built_at: artifact.createdAt,
    state,
    html_url: htmlUrl.artifact(host, orgName, artifact.flowName, artifact.fingerprint, artifact.id),
  };
}

type Counts = Pick<BuildStatistics, 'builds' | 'compliant' | 'non_compliant' | 'incomplete'>;

function emptyCounts(): Counts {
  return { builds: 0, compliant: 0, non_compliant: 0, incomplete: 0 };
}

/** Adds `count` builds whose trail stands in `state` (none stored counts as not complete). */
function added(counts: Counts, state: string | null, count: number): void {
  counts.builds += count;
  if (state === 'COMPLIANT') counts.compliant += count;
  else if (state === 'NON-COMPLIANT') counts.non_compliant += count;
  else counts.incomplete += count;
}

export function buildStatisticsView(
  window: { from?: number; to?: number },
  tallies: readonly ArtifactTally[],
): BuildStatistics {
  const total = emptyCounts();
  const byFlow = new Map<string, Counts>();
  for (const tally of tallies) {
    added(total, tally.state, tally.count);
    const flow = byFlow.get(tally.flowName) ?? emptyCounts();
    added(flow, tally.state, tally.count);
    byFlow.set(tally.flowName, flow);
  }
  return {
    from_timestamp: window.from ?? null,
    to_timestamp: window.to ?? null,
    ...total,
    first_built_at: tallies.length === 0 ? null : Math.min(...tallies.map((tally) => tally.first)),
    last_built_at: tallies.length === 0 ? null : Math.max(...tallies.map((tally) => tally.last)),
    flows: [...byFlow].map(([flowName, counts]) => ({ flow_name: flowName, ...counts })),
  };
}
