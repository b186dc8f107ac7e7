// Whether a report makes a new snapshot, and what each artifact's annotation and event are.
// The rules are the spec's (§Behavior rules for snapshots) and reference §5.2–5.4:
// - a new snapshot only when the set of running fingerprints differs, or an artifact's compliance
//   or provenance differs; instance counts alone never, timestamps and pod names never;
// - `changed` only for compliance-relevant differences (compliance or provenance), never for scaling;
// - an exited artifact stays in the snapshot that records its exit, with `now: 0`.

/** What the diff needs to know of one artifact of a snapshot. */
export interface ArtifactState {
  fingerprint: string;
  name: string;
  /** Running instances; 0 for an artifact recorded as exited. */
  instances: number;
  /** Policy verdict: null when the environment has no policy. */
  compliant: boolean | null;
  /** Where the fingerprint is attested (`flow/trail` keys, sorted, comma separated); '' when nowhere. */
  provenanceKey: string;
  /** Since when it runs in the environment without a break (rules/deployments.ts), when known. */
  since?: number;
}

export type AnnotationType = 'started' | 'unchanged' | 'changed' | 'exited';
export type EnvironmentEventType = 'started' | 'changed' | 'exited';

// A type alias, not an interface, so that it is the contract's open annotation object as it is.
export type Annotation = {
  type: AnnotationType;
  was: number;
  now: number;
};

export interface ArtifactEvent {
  type: EnvironmentEventType;
  description: string;
}

export interface SnapshotEntry<T extends ArtifactState> {
  /** The current artifact, or the previous one for an exited artifact. */
  artifact: T;
  annotation: Annotation;
  event: ArtifactEvent | null;
}

export interface SnapshotDiff<C extends ArtifactState, P extends ArtifactState> {
  /** False when the report changes nothing the rules count: no snapshot, no events. */
  isNew: boolean;
  /** Running artifacts in report order, then exited ones in their previous order (only when isNew). */
  entries: Array<SnapshotEntry<C> | SnapshotEntry<P>>;
}

// Artifacts with an unknown digest have no fingerprint; their name is then their identity.
function identityOf(artifact: ArtifactState): string {
  return artifact.fingerprint === '' ? `\0${artifact.name}` : artifact.fingerprint;
}

function isComplianceDifferent(before: ArtifactState, after: ArtifactState): boolean {
  return before.compliant !== after.compliant || before.provenanceKey !== after.provenanceKey;
}

/**
 * Diffs the running artifacts of a report against the latest snapshot (`previous`, null when the
 * environment has none yet). `force` records a snapshot even without differences (a policy was
 * attached or detached, so the latest snapshot is re-evaluated into a new one).
 */
export function diffSnapshot<C extends ArtifactState, P extends ArtifactState>(
  previous: readonly P[] | null,
  current: readonly C[],
  force = false,
): SnapshotDiff<C, P> {
  const before = new Map<string, P>();
  for (const artifact of previous ?? []) if (artifact.instances > 0) before.set(identityOf(artifact), artifact);

  let isNew = force || previous === null || before.size !== current.length;
  if (!isNew) {
    for (const artifact of current) {
      const old = before.get(identityOf(artifact));
      if (old === undefined || isComplianceDifferent(old, artifact)) {
        isNew = true;
        break;
      }
    }
  }
  if (!isNew) return { isNew, entries: [] };

  const entries: Array<SnapshotEntry<C> | SnapshotEntry<P>> = [];
  const seen = new Set<string>();
  for (const artifact of current) {
    const key = identityOf(artifact);
    seen.add(key);
    const old = before.get(key);
    if (old === undefined) {
      entries.push({
        artifact,
        annotation: { type: 'started', was: 0, now: artifact.instances },
        event: { type: 'started', description: `Started running with ${instancesText(artifact.instances)}` },
      });
    } else if (isComplianceDifferent(old, artifact)) {
      entries.push({
        artifact,
        annotation: { type: 'changed', was: old.instances, now: artifact.instances },
        event: { type: 'changed', description: changeDescription(old, artifact) },
      });
    } else {
      entries.push({
        artifact,
        annotation: { type: 'unchanged', was: old.instances, now: artifact.instances },
        event: null,
      });
    }
  }
  for (const [key, old] of before) {
    if (seen.has(key)) continue;
    entries.push({
      artifact: old,
      annotation: { type: 'exited', was: old.instances, now: 0 },
      event: { type: 'exited', description: `No longer running (was ${instancesText(old.instances)})` },
    });
  }
  return { isNew, entries };
}

function instancesText(count: number): string {
  return count === 1 ? '1 instance' : `${count} instances`;
}

function complianceText(compliant: boolean | null): string {
  return compliant === null ? 'not evaluated' : compliant ? 'compliant' : 'non-compliant';
}

function changeDescription(before: ArtifactState, after: ArtifactState): string {
  const parts: string[] = [];
  if (before.compliant !== after.compliant) {
    parts.push(`Compliance changed from ${complianceText(before.compliant)} to ${complianceText(after.compliant)}`);
  }
  if (before.provenanceKey !== after.provenanceKey) {
    parts.push(after.provenanceKey === '' ? 'Provenance removed' : `Provenance changed to ${after.provenanceKey}`);
  }
  return parts.join('; ');
}
