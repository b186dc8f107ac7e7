// Flows → trails → attestations and artifacts, built from API JSON. A trail's rows come from its
// compliance status, completed with the template's slots the status does not mention, so every
// attestation the template expects is visible, reported or not.
import type {
  ArtifactStatus,
  AttestationStatus,
  Flow,
  Page,
  TemplateAttestation,
  Trail,
} from '../../shared/apiClient/types.ts';
import { code, md, paragraphs, type Markdown } from './markdown.ts';
import { complianceOf, formatTime, loadMoreNode, messageNode, verdictLines, withUrl, type TreeNode } from './nodes.ts';
import { flowRowId } from './rowIds.ts';

export const TRAILS_PER_PAGE = 20;

export function flowNodes(flows: Flow[]): TreeNode[] {
  return [...flows].sort((a, b) => a.name.localeCompare(b.name)).map(flowNode);
}

export function flowNode(flow: Flow): TreeNode {
  const verdict = complianceOf(flow.latest_state);
  const lines: Markdown[] = [md`**Flow ${flow.name}**`];
  if (flow.description) lines.push(md`${flow.description}`);
  if (verdict) lines.push(md`Latest trail: ${verdict.state}. ${verdict.reason}`);
  const activity = formatTime(flow.latest_activity_at);
  if (activity) lines.push(md`Latest activity: ${activity}`);
  return {
    id: flowRowId(flow.name),
    kind: 'flow',
    label: flow.name,
    description: flow.description || undefined,
    tooltip: paragraphs(lines),
    compliance: verdict?.state,
    icon: verdict ? undefined : 'git-merge',
    expandable: true,
    capabilities: withUrl(['flow', 'beginTrail'], flow.html_url),
    htmlUrl: flow.html_url,
    ref: { flow: flow.name },
  };
}

/** One page of trails, newest first as the server orders them, and "Load more…" if pages remain. */
export function trailPageNodes(flow: string, page: Page<Trail>): TreeNode[] {
  const nodes = page.data.map((trail) => trailNode(flow, trail));
  if (page.pagination.page < page.pagination.page_count) {
    nodes.push(loadMoreNode(flowRowId(flow), { flow, nextPage: page.pagination.page + 1 }));
  }
  if (nodes.length === 0 && page.pagination.page === 1) nodes.push(messageNode(flowRowId(flow), 'No trails yet'));
  return nodes;
}

export function trailNode(flow: string, trail: Trail): TreeNode {
  const id = `${flowRowId(flow)}/trail/${trail.name}`;
  const verdict = complianceOf(trail.compliance_state ?? trail.compliance_status?.status, trail.is_compliant);
  const compliance = verdict?.state;
  const commit = trail.git_commit_info?.sha1?.slice(0, 7);
  const lines: Markdown[] = verdictLines(md`**Trail ${trail.name}**`, verdict);
  if (trail.description) lines.push(md`${trail.description}`);
  if (trail.git_commit_info?.sha1) {
    const message = trail.git_commit_info.message;
    lines.push(
      message
        ? md`Commit ${code(trail.git_commit_info.sha1)}: ${message}`
        : md`Commit ${code(trail.git_commit_info.sha1)}`,
    );
  }
  const created = formatTime(trail.created_at);
  if (created) lines.push(md`Begun ${created}`);
  return {
    id,
    kind: 'trail',
    label: trail.name,
    description: [compliance, commit].filter(Boolean).join(' · ') || undefined,
    tooltip: paragraphs(lines),
    compliance,
    expandable: true,
    capabilities: withUrl(['trail', 'attestScan'], trail.html_url),
    htmlUrl: trail.html_url,
    ref: { flow, trail: trail.name },
    children: trailChildren(flow, trail, id),
  };
}

function trailChildren(flow: string, trail: Trail, trailId: string): TreeNode[] {
  const status = trail.compliance_status ?? {};
  const template = trail.template?.trail ?? {};
  const context = { flow, trail: trail.name, trailUrl: trail.html_url };
  const attestations = withMissingSlots(status.attestations_statuses ?? [], template.attestations ?? []).map(
    (attestation) => attestationNode(context, trailId, attestation),
  );
  const statuses = status.artifacts_statuses ?? {};
  const artifactNames = [...(template.artifacts ?? []).map((artifact) => artifact.name)];
  for (const name of Object.keys(statuses)) if (!artifactNames.includes(name)) artifactNames.push(name);
  const artifacts = artifactNames.map((name) => {
    const slot = (template.artifacts ?? []).find((artifact) => artifact.name === name);
    return artifactNode(context, trailId, name, statuses[name], slot?.attestations ?? []);
  });
  const children = [...attestations, ...artifacts];
  return children.length > 0 ? children : [messageNode(trailId, 'No attestations or artifacts yet')];
}

interface TrailContext {
  flow: string;
  trail: string;
  trailUrl?: string;
}

/** The statuses the server gave, plus a MISSING row for each template slot it left out. */
function withMissingSlots(statuses: AttestationStatus[], slots: TemplateAttestation[]): AttestationStatus[] {
  const rows = [...statuses];
  for (const slot of slots) {
    if (!rows.some((row) => row.attestation_name === slot.name)) {
      rows.push({ attestation_name: slot.name, attestation_type: slot.type, status: 'MISSING', is_compliant: null });
    }
  }
  return rows;
}

function attestationNode(context: TrailContext, parentId: string, attestation: AttestationStatus): TreeNode {
  const missing = attestation.status === 'MISSING';
  const verdict = complianceOf(missing ? 'MISSING' : undefined, attestation.is_compliant);
  const compliance = verdict?.state;
  const notes = [
    attestation.attestation_type,
    compliance,
    attestation.unexpected ? 'unexpected' : undefined,
    attestation.overridden_attestation_id ? 'overridden' : undefined,
  ];
  const lines: Markdown[] = verdictLines(md`**Attestation ${attestation.attestation_name}**`, verdict);
  if (attestation.attestation_type) lines.push(md`Type: ${code(attestation.attestation_type)}`);
  if (attestation.unexpected) lines.push(md`Not in the template.`);
  if (attestation.overridden_attestation_id)
    lines.push(md`Overrides attestation ${code(attestation.overridden_attestation_id)}.`);
  const htmlUrl =
    attestation.attestation_id && context.trailUrl
      ? `${context.trailUrl}?attestation_id=${attestation.attestation_id}`
      : undefined;
  return {
    id: `${parentId}/attestation/${attestation.attestation_name}`,
    kind: 'attestation',
    label: attestation.attestation_name,
    description: notes.filter(Boolean).join(' · '),
    tooltip: paragraphs(lines),
    compliance,
    expandable: false,
    capabilities: withUrl(missing ? ['attestation', 'missing'] : ['attestation'], htmlUrl),
    htmlUrl,
    ref: { flow: context.flow, trail: context.trail, attestationId: attestation.attestation_id ?? undefined },
  };
}

function artifactNode(
  context: TrailContext,
  trailId: string,
  name: string,
  status: ArtifactStatus | undefined,
  slots: TemplateAttestation[],
): TreeNode {
  const id = `${trailId}/artifact/${name}`;
  const fingerprint = status?.artifact_fingerprint ?? undefined;
  const verdict = complianceOf(status?.status ?? 'MISSING', status?.is_compliant);
  const compliance = verdict?.state;
  const lines: Markdown[] = verdictLines(md`**Artifact ${name}**`, verdict);
  lines.push(fingerprint ? md`Fingerprint ${code(fingerprint)}` : md`Expected by the template, not attested yet.`);
  if (status?.unexpected) lines.push(md`Not in the template.`);
  const htmlUrl =
    fingerprint && context.trailUrl
      ? artifactUrl(context.trailUrl, fingerprint, status?.artifact_id ?? undefined)
      : undefined;
  const children = withMissingSlots(status?.attestations_statuses ?? [], slots).map((attestation) =>
    attestationNode(context, id, attestation),
  );
  return {
    id,
    kind: 'artifact',
    label: name,
    description: [fingerprint?.slice(0, 12), compliance, status?.unexpected ? 'unexpected' : undefined]
      .filter(Boolean)
      .join(' · '),
    tooltip: paragraphs(lines),
    compliance,
    expandable: children.length > 0,
    capabilities: withUrl(fingerprint ? ['artifact'] : ['artifact', 'missing'], htmlUrl),
    htmlUrl,
    ref: { flow: context.flow, trail: context.trail, fingerprint },
    children,
  };
}

/** `{host}/{org}/flows/{flow}/trails/{trail}` → `{host}/{org}/flows/{flow}/artifacts/{fp}?artifact_id={id}` (reference §1.8). */
export function artifactUrl(trailUrl: string, fingerprint: string, artifactId: string | undefined): string | undefined {
  const match = /^(.*\/flows\/[^/]+)\/trails\/[^/?]+$/.exec(trailUrl);
  if (!match) return undefined;
  return `${match[1]}/artifacts/${fingerprint}${artifactId ? `?artifact_id=${artifactId}` : ''}`;
}
