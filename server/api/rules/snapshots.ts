// The next snapshot of an environment, if the rules call for one: the diff decides, then the
// artifact objects, compliance and events are assembled for the store to write in one go.
import {
  snapshotArtifactOf,
  exitedArtifactOf,
  type EvaluatedArtifact,
  type SnapshotArtifact,
} from './snapshotArtifacts.ts';
import { artifactComplianceCount, snapshotCompliance } from '../../../shared/compliance/index.ts';
import { diffSnapshot, type ArtifactState, type EnvironmentEventType, type SnapshotDiff } from './snapshotDiff.ts';
import { continuedFlowsOf, startedFlowsOf, startOf, type PreviousArtifact } from './deployments.ts';

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
   * The full artifact objects at these positions of `states`; read only when a new snapshot is
   * made, and only for the artifacts its deployments need (positionsToRead): a report that changes
   * nothing reads none, and artifacts without provenance are read only when they leave.
   */
  artifactsAt(positions: readonly number[]): SnapshotArtifact[];
}

function identityOf(artifact: ArtifactState): string {
  return artifact.fingerprint === '' ? `\0${artifact.name}` : artifact.fingerprint;
}

/** The flow names of a provenance key (`flow/trail`, comma separated). */
function flowsOfKey(provenanceKey: string): string[] {
  return provenanceKey === '' ? [] : provenanceKey.split(',').map((key) => key.split('/')[0]);
}

/**
 * The previous snapshot's artifacts this one's deployments read (rules/deployments.ts), as
 * positions of its states: those that left (they stay in the new snapshot), the running ones with
 * provenance (they keep what they replaced), and those that share a flow with an artifact that
 * starts (it may have replaced one of them). An unchanged artifact without provenance is not read.
 */
function positionsToRead(
  latest: LatestSnapshot,
  entries: SnapshotDiff<EvaluatedArtifact, ArtifactState>['entries'],
): number[] {
  const startedFlows = new Set<string>();
  const read = new Set<string>();
  for (const entry of entries) {
    if (entry.annotation.type === 'started')
      for (const flow of (entry.artifact as EvaluatedArtifact).provenance) startedFlows.add(flow.flow_name);
    else if (entry.annotation.type === 'exited' || entry.artifact.provenanceKey !== '')
      read.add(identityOf(entry.artifact));
  }
  return latest.states.flatMap((state, position) =>
    read.has(identityOf(state)) || flowsOfKey(state.provenanceKey).some((flow) => startedFlows.has(flow))
      ? [position]
      : [],
  );
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

  // The previous snapshot's states by identity, and the artifact objects this snapshot reads.
  const before = new Map<string, ArtifactState>();
  const previousByIdentity = new Map<string, SnapshotArtifact>();
  if (latest !== null) {
    for (const state of latest.states) before.set(identityOf(state), state);
    const positions = positionsToRead(latest, diff.entries);
    latest
      .artifactsAt(positions)
      .forEach((artifact, i) => previousByIdentity.set(identityOf(latest.states[positions[i]]), artifact));
  }
  const runsNow = new Set(current.map(identityOf));
  const replaceable: PreviousArtifact[] = [...previousByIdentity].map(([identity, artifact]) => ({
    fingerprint: artifact.fingerprint,
    name: artifact.name,
    flows: artifact.flows,
    ranBefore: (before.get(identity)?.instances ?? 0) > 0,
    runsNow: runsNow.has(identity),
  }));

  const artifacts: SnapshotArtifact[] = [];
  const states: ArtifactState[] = [];
  const events: SnapshotEvent[] = [];
  for (const entry of diff.entries) {
    const identity = identityOf(entry.artifact);
    let artifact: SnapshotArtifact;
    let since: number | undefined;
    if (entry.annotation.type === 'exited') {
      artifact = exitedArtifactOf(previousByIdentity.get(identity)!, entry.annotation);
      since = before.get(identity)?.since;
    } else {
      const running = entry.artifact as EvaluatedArtifact;
      const started = entry.annotation.type === 'started';
      since = (started ? undefined : before.get(identity)?.since) ?? startOf(running.running.creationTimestamps);
      const flows = started
        ? startedFlowsOf(running.fingerprint, running.provenance, replaceable, since)
        : continuedFlowsOf(running.provenance, previousByIdentity.get(identity)?.flows ?? [], since);
      artifact = snapshotArtifactOf(running, entry.annotation, flows);
    }
    artifacts.push(artifact);
    const state: ArtifactState = {
      fingerprint: entry.artifact.fingerprint,
      name: entry.artifact.name,
      instances: entry.annotation.now,
      compliant: entry.artifact.compliant,
      provenanceKey: entry.artifact.provenanceKey,
    };
    if (since !== undefined) state.since = since;
    states.push(state);
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
