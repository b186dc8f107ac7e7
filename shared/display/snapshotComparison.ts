// Two snapshots compared as display data (design §10): what started running between them, what
// exited, and what changed its instance count. Input is the API's EnvironmentDiff object
// (`GET /env-diff/{org}?snappish1=<earlier>&snappish2=<later>`): `snappish1` holds what only the
// earlier one runs (exited), `snappish2` what only the later one runs (started).

import {
  isRecord,
  listOf,
  numberOf,
  snapshotIdOf,
  textOf,
  timeOf,
  urlDisplay,
  type SnapshotId,
  type ViewRef,
  type ViewUrl,
} from './links.ts';

export interface ComparedArtifactDisplay {
  name: string;
  fingerprint: string | null;
  flow: string;
  /** Instances in the earlier and the later snapshot. */
  was: number;
  now: number;
  /** When its newest instance started. */
  startedAt: string | null;
  commitUrl: ViewUrl | null;
  ref: ViewRef | null;
}

export interface SnapshotComparisonDisplay {
  /** `env#N` of each side, as the server resolved them. */
  from: string;
  to: string;
  fromRef: ViewRef | null;
  toRef: ViewRef | null;
  started: ComparedArtifactDisplay[];
  exited: ComparedArtifactDisplay[];
  changed: ComparedArtifactDisplay[];
  unchanged: ComparedArtifactDisplay[];
}

export function snapshotComparisonDisplay(diff: Record<string, unknown>): SnapshotComparisonDisplay {
  const side = (key: string): Record<string, unknown> => (isRecord(diff[key]) ? diff[key] : {});
  const from = textOf(side('snappish1').snapshot_id);
  const to = textOf(side('snappish2').snapshot_id);
  return {
    from,
    to,
    fromRef: snapshotRef(snapshotIdOf(from)),
    toRef: snapshotRef(snapshotIdOf(to)),
    started: listOf(side('snappish2').artifacts).map((artifact) =>
      comparedArtifact(artifact, 0, numberOf(artifact.instance_count)),
    ),
    exited: listOf(side('snappish1').artifacts).map((artifact) =>
      comparedArtifact(artifact, numberOf(artifact.instance_count), 0),
    ),
    changed: listOf(side('changed').artifacts).map((artifact) =>
      comparedArtifact(artifact, numberOf(artifact.s1_instance_count), numberOf(artifact.s2_instance_count)),
    ),
    unchanged: listOf(side('not-changed').artifacts).map((artifact) =>
      comparedArtifact(artifact, numberOf(artifact.instance_count), numberOf(artifact.instance_count)),
    ),
  };
}

function comparedArtifact(artifact: Record<string, unknown>, was: number, now: number): ComparedArtifactDisplay {
  const fingerprint =
    typeof artifact.fingerprint === 'string' && artifact.fingerprint !== '' ? artifact.fingerprint : null;
  const flow = textOf(artifact.flow);
  return {
    name: textOf(artifact.name),
    fingerprint,
    flow,
    was,
    now,
    startedAt: timeOf(artifact.most_recent_timestamp),
    commitUrl: urlDisplay('commit', artifact.commit_url),
    ref: fingerprint === null || flow === '' ? null : { kind: 'artifact', flow, fingerprint },
  };
}

function snapshotRef(id: SnapshotId | null): ViewRef | null {
  return id === null ? null : { kind: 'snapshot', environment: id.environment, index: id.index };
}
