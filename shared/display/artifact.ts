// An artifact as display data (design §10): where it runs now and where it ran, the attestations
// made of it, and its provenance (flow, trail, template slot, commit, build). Input is the API's
// Artifact object (`GET /artifacts/{org}/{flow}/fingerprint/{fp}` or an item of its list).

import { artifactVerdict, attestationVerdict, type Verdict } from '../compliance/vocabulary.ts';
import {
  externalUrlsOf,
  isRecord,
  listOf,
  numberOf,
  prettyJson,
  textOf,
  timeOf,
  urlDisplay,
  type ViewRef,
  type ViewUrl,
} from './links.ts';

/** One environment snapshot the artifact was seen in. */
export interface PlacementDisplay {
  environment: string;
  snapshotIndex: number;
  /** `env#N`, as people and the diff endpoint name a snapshot. */
  label: string;
  environmentRef: ViewRef;
  snapshotRef: ViewRef;
}

export interface ArtifactAttestationDisplay {
  name: string;
  id: string;
  status: Verdict;
  ref: ViewRef;
}

export interface ProvenanceDisplay {
  flow: string;
  flowRef: ViewRef;
  trail: string;
  trailRef: ViewRef;
  /** The template artifact slot the artifact fills. */
  templateReferenceName: string;
  commit: { sha: string; message: string; author: string; branch: string } | null;
  commitUrl: ViewUrl | null;
  buildUrl: ViewUrl | null;
  repoUrl: ViewUrl | null;
}

export interface ArtifactDisplay {
  title: string;
  fingerprint: string;
  /** The verdict of the trail it was attested in. */
  status: Verdict;
  createdAt: string | null;
  running: PlacementDisplay[];
  exited: PlacementDisplay[];
  attestations: ArtifactAttestationDisplay[];
  provenance: ProvenanceDisplay;
  history: { time: string | null; event: string }[];
  externalUrls: ViewUrl[];
  annotations: string | null;
  userData: string | null;
}

export function artifactDisplay(artifact: Record<string, unknown>): ArtifactDisplay {
  const flow = textOf(artifact.flow_name);
  const trail = textOf(artifact.trail_name);
  const commitInfo = isRecord(artifact.git_commit_info) ? artifact.git_commit_info : null;
  const sha = textOf(commitInfo?.sha1 ?? artifact.git_commit);
  const evidence = isRecord(artifact.evidence) ? artifact.evidence : {};
  return {
    title: textOf(artifact.filename),
    fingerprint: textOf(artifact.fingerprint),
    status: artifactVerdict(artifact.state),
    createdAt: timeOf(artifact.created_at),
    running: listOf(artifact.running).map(placementDisplay),
    exited: listOf(artifact.exited).map(placementDisplay),
    attestations: listOf(evidence.attestations).map((entry) => ({
      name: textOf(entry.attestation_name),
      id: textOf(entry.attestation_id),
      status: attestationVerdict(entry.is_compliant),
      ref: { kind: 'attestation', flow, trail, attestationId: textOf(entry.attestation_id) },
    })),
    provenance: {
      flow,
      flowRef: { kind: 'flow', flow },
      trail,
      trailRef: { kind: 'trail', flow, trail },
      templateReferenceName: textOf(artifact.template_reference_name),
      commit:
        sha === '' && commitInfo === null
          ? null
          : {
              sha,
              message: textOf(commitInfo?.message),
              author: textOf(commitInfo?.author),
              branch: textOf(commitInfo?.branch),
            },
      commitUrl: urlDisplay('commit', artifact.commit_url || commitInfo?.url),
      buildUrl: urlDisplay('build', artifact.build_url),
      repoUrl: urlDisplay('repository', artifact.repo_url),
    },
    history: listOf(artifact.history).map((entry) => ({ time: timeOf(entry.timestamp), event: textOf(entry.event) })),
    externalUrls: externalUrlsOf(artifact.external_urls),
    annotations: prettyJson(artifact.annotations),
    userData: prettyJson(artifact.user_data),
  };
}

function placementDisplay(entry: Record<string, unknown>): PlacementDisplay {
  const environment = textOf(entry.environment_name);
  const snapshotIndex = numberOf(entry.snapshot_index);
  return {
    environment,
    snapshotIndex,
    label: `${environment}#${snapshotIndex}`,
    environmentRef: { kind: 'environment', environment },
    snapshotRef: { kind: 'snapshot', environment, index: snapshotIndex },
  };
}
