// The next snapshot of an environment, if the rules call for one: the diff decides, then the
// artifact objects, compliance and events are assembled for the store to write in one go.
import {
  snapshotArtifactOf,
  exitedArtifactOf,
  type EvaluatedArtifact,
  type SnapshotArtifact,
} from './snapshotArtifacts.ts';
import { artifactComplianceCount, snapshotCompliance } from '../../../shared/compliance/index.ts';
import { diffSnapshot, type ArtifactState, type EnvironmentEventType } from './snapshotDiff.ts';

export interface SnapshotEvent {
  type: EnvironmentEventType;
  description: string;
  artifact: SnapshotArtifact;
}

export interface NextSnapshot {
  artifacts: SnapshotArtifact[];
  /** Compact per-artifact facts the next diff reads instead of the artifact objects. */
  states: ArtifactState[];
  compliant: boolean;
  complianceCount: { true: number; false: number; null: number };
  events: SnapshotEvent[];
}

export interface LatestSnapshot {
  states: readonly ArtifactState[];
  /**
   * The full artifact objects at these positions of `states`; only read for artifacts that exited
   * (they stay in the new snapshot), so an unchanged or slightly changed report never reads them all.
   */
  artifactsAt(positions: readonly number[]): SnapshotArtifact[];
}

function identityOf(artifact: ArtifactState): string {
  return artifact.fingerprint === '' ? `\0${artifact.name}` : artifact.fingerprint;
}

/**
 * The snapshot a report (or a re-evaluation, with `force`) makes, or null when the rules say the
 * environment did not change. `latest` is null for an environment without snapshots.
 */
export function nextSnapshotOf(
  latest: LatestSnapshot | null,
  current: readonly EvaluatedArtifact[],
  policyCount: number,
  force = false,
): NextSnapshot | null {
  const diff = diffSnapshot(latest === null ? null : latest.states, current, force);
  if (!diff.isNew) return null;

  const exited = diff.entries
    .filter((entry) => entry.annotation.type === 'exited')
    .map((entry) => identityOf(entry.artifact));
  const previousByIdentity = new Map<string, SnapshotArtifact>();
  if (exited.length > 0) {
    const positions = new Map(latest!.states.map((state, position) => [identityOf(state), position]));
    const wanted = exited.map((identity) => positions.get(identity)!);
    latest!.artifactsAt(wanted).forEach((artifact, i) => previousByIdentity.set(exited[i], artifact));
  }

  const artifacts: SnapshotArtifact[] = [];
  const states: ArtifactState[] = [];
  const events: SnapshotEvent[] = [];
  for (const entry of diff.entries) {
    const artifact =
      entry.annotation.type === 'exited'
        ? exitedArtifactOf(previousByIdentity.get(identityOf(entry.artifact))!, entry.annotation)
        : snapshotArtifactOf(entry.artifact as EvaluatedArtifact, entry.annotation);
    artifacts.push(artifact);
    states.push({
      fingerprint: entry.artifact.fingerprint,
      name: entry.artifact.name,
      instances: entry.annotation.now,
      compliant: entry.artifact.compliant,
      provenanceKey: entry.artifact.provenanceKey,
    });
    if (entry.event !== null) events.push({ ...entry.event, artifact });
  }
  const running = states.filter((state) => state.instances > 0).map((state) => state.compliant);
  return {
    artifacts,
    states,
    compliant: snapshotCompliance(running, policyCount),
    complianceCount: artifactComplianceCount(running),
    events,
  };
}
