// Environments → snapshots → the artifacts each snapshot saw running, built from API JSON.
import type { Environment, Snapshot, SnapshotArtifact, SnapshotListItem } from '../../shared/apiClient/types.ts';
import { code, md, paragraphs, type Markdown } from './markdown.ts';
import {
  environmentVerdict,
  listedSnapshotVerdict,
  runningArtifactVerdict,
} from '../../shared/compliance/vocabulary.ts';
import { formatTime, loadMoreNode, messageNode, verdictLines, withUrl, type TreeNode } from './nodes.ts';
import { environmentRowId } from './rowIds.ts';

export const SNAPSHOTS_PER_PAGE = 15;

export function environmentNodes(environments: Environment[]): TreeNode[] {
  return [...environments].sort((a, b) => a.name.localeCompare(b.name)).map(environmentNode);
}

export function environmentNode(environment: Environment): TreeNode {
  const verdict = environmentVerdict(
    environment.state,
    environment.policies?.length ?? 0,
    environment.snapshot_count ?? (environment.last_reported_at ? 1 : 0),
  );
  const lines = verdictLines(md`**Environment ${environment.name}** (${environment.type})`, verdict);
  if (environment.description) lines.push(md`${environment.description}`);
  const reported = formatTime(environment.last_reported_at);
  lines.push(reported ? md`Last report: ${reported}` : md`No report yet.`);
  if (environment.policies && environment.policies.length > 0)
    lines.push(md`Policies: ${environment.policies.join(', ')}`);
  const capabilities = ['environment', 'auditLog'];
  if (environment.type === 'K8S') capabilities.push('reportK8s');
  return {
    id: environmentRowId(environment.name),
    kind: 'environment',
    label: environment.name,
    description: `${environment.type} · ${verdict.state}`,
    tooltip: paragraphs(lines),
    compliance: verdict.state,
    expandable: true,
    capabilities: withUrl(capabilities, environment.html_url),
    htmlUrl: environment.html_url,
    ref: { environment: environment.name, judged: environment.state === true || environment.state === false },
  };
}

/** One page of snapshots, newest first, and "Load more…" when the page was full. */
export function snapshotPageNodes(
  environment: string,
  environmentUrl: string | undefined,
  items: SnapshotListItem[],
  page: number,
  perPage: number,
  judged = true,
): TreeNode[] {
  const nodes = [...items]
    .sort((a, b) => b.index - a.index)
    .map((item) => snapshotNode(environment, environmentUrl, item, judged));
  if (items.length >= perPage)
    nodes.push(
      loadMoreNode(environmentRowId(environment), {
        environment,
        nextPage: page + 1,
        parentUrl: environmentUrl,
        judged,
      }),
    );
  if (nodes.length === 0 && page === 1) nodes.push(messageNode(environmentRowId(environment), 'No snapshots yet'));
  return nodes;
}

function snapshotNode(
  environment: string,
  environmentUrl: string | undefined,
  item: SnapshotListItem,
  judged: boolean,
): TreeNode {
  const current = item.to === 0;
  const from = formatTime(item.from);
  const htmlUrl = environmentUrl ? `${environmentUrl}/snapshots/${item.index}` : undefined;
  const verdict = listedSnapshotVerdict(item.compliant, judged);
  const lines = verdictLines(md`**Snapshot #${item.index}** of ${environment}`, verdict);
  if (from) lines.push(current ? md`From ${from} (current)` : md`From ${from} to ${formatTime(item.to) ?? '?'}`);
  return {
    id: `${environmentRowId(environment)}/snapshot/${item.index}`,
    kind: 'snapshot',
    label: `#${item.index}`,
    description: [current ? 'current' : undefined, from].filter(Boolean).join(' · '),
    tooltip: paragraphs(lines),
    compliance: verdict.state,
    expandable: true,
    capabilities: withUrl(['snapshot'], htmlUrl),
    htmlUrl,
    ref: { environment, snapshot: item.index },
  };
}

export function snapshotArtifactNodes(environment: string, snapshot: Snapshot): TreeNode[] {
  const parentId = `${environmentRowId(environment)}/snapshot/${snapshot.index}`;
  const artifacts = snapshot.artifacts ?? [];
  if (artifacts.length === 0) return [messageNode(parentId, 'Nothing running')];
  const judged = (snapshot.applied_policies?.length ?? 0) > 0;
  return artifacts.map((artifact) => snapshotArtifactNode(parentId, environment, snapshot.index, artifact, judged));
}

function snapshotArtifactNode(
  parentId: string,
  environment: string,
  index: number,
  artifact: SnapshotArtifact,
  judged: boolean,
): TreeNode {
  const annotation = artifact.annotation?.type;
  const exited = annotation === 'exited';
  const instances = artifact.annotation?.now ?? artifact.creationTimestamp?.length;
  const provenance = provenanceOf(artifact);
  const verdict = exited ? undefined : runningArtifactVerdict(artifact.compliant, judged, []);
  const lines: Markdown[] = exited
    ? [md`**${artifact.name}** — exited`]
    : verdictLines(md`**${artifact.name}**`, verdict);
  if (artifact.fingerprint) lines.push(md`Fingerprint ${code(artifact.fingerprint)}`);
  if (annotation) {
    lines.push(
      artifact.annotation?.was !== undefined
        ? md`${annotation} (instances ${artifact.annotation.was} → ${artifact.annotation.now ?? 0})`
        : md`${annotation}`,
    );
  }
  lines.push(
    provenance ? md`Provenance: ${provenance}` : md`No provenance: this fingerprint is not attested in any flow.`,
  );
  for (const reason of artifact.reasons_for_incompliance ?? []) lines.push(md`• ${reason}`);
  const htmlUrl = artifact.html_url ?? undefined;
  return {
    id: `${parentId}/artifact/${artifact.fingerprint ?? artifact.name}`,
    kind: 'snapshotArtifact',
    label: artifact.name,
    description: [
      annotation,
      exited ? undefined : instances !== undefined ? `${instances}×` : undefined,
      provenance ?? 'no provenance',
    ]
      .filter(Boolean)
      .join(' · '),
    tooltip: paragraphs(lines),
    compliance: verdict?.state,
    icon: exited ? 'debug-stop' : undefined,
    expandable: false,
    capabilities: withUrl(['snapshotArtifact', annotation ?? 'unannotated'], htmlUrl),
    htmlUrl,
    // The flow that attested the artifact, for its detail view; none when nothing attested it.
    ref: {
      environment,
      snapshot: index,
      fingerprint: artifact.fingerprint ?? undefined,
      flow: artifact.flows?.[0]?.flow_name || artifact.flow_name || undefined,
    },
  };
}

/** `flow/trail` of the first flow that attested the fingerprint, or just the flow name. */
function provenanceOf(artifact: SnapshotArtifact): string | undefined {
  const first = artifact.flows?.[0];
  if (first?.flow_name) return first.trail_name ? `${first.flow_name}/${first.trail_name}` : first.flow_name;
  // The server sends "" rather than null for an artifact no flow attested.
  return artifact.flow_name || undefined;
}
