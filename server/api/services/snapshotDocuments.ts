// The documents the store keeps for a snapshot, read and written as the snapshot rules' types: the
// store keeps a snapshot's states, artifacts and applied policies as JSON it knows nothing of, and
// these are the one place that says what they are (services/snapshotting.ts writes them).
import type { Snapshot } from '../../../shared/contract/types.ts';
import type { SnapshotArtifact } from '../rules/snapshotArtifacts.ts';
import type { ArtifactState } from '../rules/snapshotDiff.ts';
import type { NextSnapshot } from '../rules/snapshots.ts';
import type { Store } from '../store/index.ts';
import type { NewSnapshot } from '../store/snapshots.ts';
import type { ReadSnapshot } from '../views/snapshots.ts';

/** The latest snapshot as the next diff reads it: compact states, and artifacts read only where asked. */
export interface CurrentSnapshot {
  index: number;
  compliant: boolean;
  states: ArtifactState[];
  artifactsAt(positions: readonly number[]): SnapshotArtifact[];
}

export async function latestSnapshotOf(store: Store, environmentId: number): Promise<CurrentSnapshot | undefined> {
  const latest = await store.snapshots.latest(environmentId);
  if (latest === undefined) return undefined;
  return {
    index: latest.index,
    compliant: latest.compliant,
    states: latest.states as ArtifactState[],
    artifactsAt: (positions) => latest.artifactsAt(positions) as SnapshotArtifact[],
  };
}

export async function snapshotOf(
  store: Store,
  environmentId: number,
  index: number,
): Promise<ReadSnapshot | undefined> {
  const snapshot = await store.snapshots.get(environmentId, index);
  if (snapshot === undefined) return undefined;
  return {
    ...snapshot,
    artifacts: snapshot.artifacts as SnapshotArtifact[],
    appliedPolicies: snapshot.appliedPolicies as Snapshot['applied_policies'],
  };
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value !== ''))];
}

/** The rows a snapshot the rules call for is stored as: the snapshot, and one event per artifact event. */
export function newSnapshotOf(next: NextSnapshot, appliedPolicies: readonly unknown[]): NewSnapshot {
  return {
    compliant: next.compliant,
    complianceCount: next.complianceCount,
    appliedPolicies,
    states: next.states,
    artifacts: next.artifacts,
    events: next.events.map((event) => {
      const flows = event.artifact.flows;
      return {
        type: event.type,
        artifactName: event.artifact.name,
        fingerprint: event.artifact.fingerprint,
        description: event.description,
        flowNames: flows.map((flow) => flow.flow_name),
        trailNames: flows.map((flow) => flow.trail_name),
        gitCommit: event.artifact.git_commit,
        repoNames: distinct(flows.map((flow) => flow.repo_name)),
        pipeline: event.artifact.flow_name,
        artifactCompliance: event.artifact.compliant,
      };
    }),
  };
}
