// Artifact objects (spec's Artifact table, reference §2.4 and §1.11) and search results (§2.8).
// Where an artifact runs comes from its trail's artifact_started_running / artifact_stopped_running
// events, which environment reports record.
import type { ComplianceState } from '../../../shared/compliance/status.ts';
import type { Artifact as ArtifactAnswer, SearchArtifact } from '../../../shared/contract/types.ts';
import type { Artifact } from '../store/artifacts.ts';
import type { Attestation } from '../store/attestations.ts';
import type { TrailEvent } from '../store/trails.ts';
import { commitInfoView } from './commitInfo.ts';
import { apiUrl, htmlUrl } from './urls.ts';

export interface Placement {
  environment_name: string;
  snapshot_index: number;
}

export interface ArtifactFacts {
  /** Its trail's compliance state. */
  state: ComplianceState;
  events: readonly TrailEvent[];
  attestations: readonly Attestation[];
}

function concerns(artifact: Artifact, event: TrailEvent): boolean {
  if (event.template_reference_name !== undefined && event.template_reference_name !== artifact.templateReferenceName)
    return false;
  return event.artifact_fingerprint === undefined || event.artifact_fingerprint === artifact.fingerprint;
}

/** Environments the artifact runs in now, and those it left (latest snapshot index each). */
function placementsOf(
  artifact: Artifact,
  events: readonly TrailEvent[],
): { running: Placement[]; exited: Placement[] } {
  const latest = new Map<string, { running: boolean; index: number }>();
  for (const event of events) {
    if (event.type !== 'artifact_started_running' && event.type !== 'artifact_stopped_running') continue;
    if (!concerns(artifact, event) || typeof event.environment_name !== 'string') continue;
    latest.set(event.environment_name, {
      running: event.type === 'artifact_started_running',
      index: Number(event.snapshot_index ?? 0),
    });
  }
  const running: Placement[] = [];
  const exited: Placement[] = [];
  for (const [environment, state] of latest) {
    (state.running ? running : exited).push({ environment_name: environment, snapshot_index: state.index });
  }
  return { running, exited };
}

/** Attestations that speak about this artifact: by fingerprint, or through its template slot. */
export function attestationsOf(artifact: Artifact, attestations: readonly Attestation[]): Attestation[] {
  return attestations.filter(
    (attestation) =>
      attestation.artifactFingerprint === artifact.fingerprint ||
      (attestation.artifactFingerprint === null && attestation.targetArtifact === artifact.templateReferenceName),
  );
}

/** What happened to the artifact, oldest first: its report under its template name (reference §8.2 item 7), evidence, runs. */
function historyOf(artifact: Artifact, facts: ArtifactFacts): Array<{ event: string; timestamp: number }> {
  const history = [{ event: `${artifact.templateReferenceName} reported`, timestamp: artifact.createdAt }];
  for (const attestation of attestationsOf(artifact, facts.attestations)) {
    history.push({ event: `${attestation.name} evidence received`, timestamp: attestation.createdAt });
  }
  for (const event of facts.events) {
    if (!concerns(artifact, event) || typeof event.environment_name !== 'string') continue;
    const where = `${event.environment_name}#${Number(event.snapshot_index ?? 0)}`;
    if (event.type === 'artifact_started_running')
      history.push({ event: `Started running in ${where} environment`, timestamp: event.timestamp });
    if (event.type === 'artifact_stopped_running')
      history.push({ event: `No longer running in ${where} environment`, timestamp: event.timestamp });
  }
  return history.sort((a, b) => a.timestamp - b.timestamp);
}

function seconds(value: number): string {
  return String(value);
}

/** The fields of the attest request an artifact keeps as they were sent (checked by the artifact-create schema). */
type SentFields = {
  [
    Field in
      | 'git_commit_info'
      | 'repo_info'
      | 'commit_url'
      | 'build_url'
      | 'repo_url'
      | 'user_data'
      | 'external_urls'
      | 'annotations'
  ]?: ArtifactAnswer[Field] | null;
};

export function artifactView(host: string, orgName: string, artifact: Artifact, facts: ArtifactFacts): ArtifactAnswer {
  const body = artifact.body as SentFields;
  const { running, exited } = placementsOf(artifact, facts.events);
  return {
    id: artifact.id,
    fingerprint: artifact.fingerprint,
    filename: artifact.filename,
    flow_name: artifact.flowName,
    trail_name: artifact.trailName,
    template_reference_name: artifact.templateReferenceName,
    created_at: seconds(artifact.createdAt),
    last_modified_at: seconds(artifact.lastModifiedAt),
    git_commit: artifact.gitCommit,
    git_commit_info: commitInfoView(body.git_commit_info),
    repo_info: body.repo_info ?? null,
    commit_url: body.commit_url ?? '',
    build_url: body.build_url ?? '',
    repo_url: body.repo_url ?? '',
    html_url: htmlUrl.artifact(host, orgName, artifact.flowName, artifact.fingerprint, artifact.id),
    api_url: apiUrl.artifact(host, orgName, artifact.flowName, artifact.fingerprint),
    user_data: body.user_data ?? null,
    external_urls: body.external_urls ?? {},
    annotations: body.annotations ?? {},
    evidence: {
      attestations: attestationsOf(artifact, facts.attestations).map((attestation) => ({
        attestation_id: attestation.id,
        attestation_name: attestation.name,
        is_compliant: attestation.isCompliant,
      })),
    },
    state: facts.state,
    running,
    exited,
    history: historyOf(artifact, facts),
  };
}

export function searchItemView(
  host: string,
  orgName: string,
  artifact: Artifact,
  facts: ArtifactFacts,
): SearchArtifact {
  const body = artifact.body as SentFields;
  const { running, exited } = placementsOf(artifact, facts.events);
  return {
    fingerprint: artifact.fingerprint,
    name: artifact.filename,
    has_provenance: true,
    git_commit: artifact.gitCommit,
    pipeline: body.build_url ?? '',
    flow: artifact.flowName,
    trail: artifact.trailName,
    template_reference_name: artifact.templateReferenceName,
    build_url: body.build_url ?? '',
    commit_url: body.commit_url ?? '',
    compliance_state: facts.state,
    running_in: running.map((placement) => placement.environment_name),
    exited_from: exited.map((placement) => placement.environment_name),
    html_url: htmlUrl.artifact(host, orgName, artifact.flowName, artifact.fingerprint, artifact.id),
    api_url: apiUrl.artifact(host, orgName, artifact.flowName, artifact.fingerprint),
    history: historyOf(artifact, facts),
  };
}
