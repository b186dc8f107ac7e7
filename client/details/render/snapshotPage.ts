// The snapshot view: what runs, each artifact's compliance and the policy rule that failed, what
// exited, the policies applied; and two snapshots compared (started, exited, changed). Both from the
// shared display models (shared/display/snapshot.ts, snapshotComparison.ts).
import { html, type SafeHtml } from '../../../shared/html.ts';
import type { ComparedArtifactDisplay, SnapshotComparisonDisplay } from '../../../shared/display/snapshotComparison.ts';
import type { SnapshotArtifactDisplay, SnapshotDisplay } from '../../../shared/display/snapshot.ts';
import { facts, pagedTable, refLink, status, verdictLine, type DetailPage, type Pages } from './parts.ts';

function whyCell(artifact: SnapshotArtifactDisplay): SafeHtml {
  const rules = artifact.failedRules.map(
    (rule) => html`<li>${rule.policy} v${rule.version}, ${rule.rule}: ${rule.reason}</li>`,
  );
  const reasons = artifact.failedRules.length === 0 ? artifact.reasons.map((reason) => html`<li>${reason}</li>`) : [];
  return rules.length + reasons.length === 0 ? html`` : html`<ul class="why">${rules}${reasons}</ul>`;
}

function provenanceCell(artifact: SnapshotArtifactDisplay): SafeHtml {
  if (artifact.provenance.length === 0) return html`no provenance`;
  return html`${artifact.provenance.map((entry, index) => html`${index === 0 ? '' : ', '}${entry.flow}${entry.trailRef === null ? '' : html` / ${refLink(entry.trailRef, entry.trail)}`}`)}`;
}

function artifactRows(artifacts: SnapshotArtifactDisplay[]): (SafeHtml | string)[][] {
  return artifacts.map((artifact) => [
    refLink(artifact.ref, artifact.name),
    status(artifact.compliance),
    html`${artifact.change} (${artifact.instances.was} → ${artifact.instances.now})`,
    artifact.pods.join(', '),
    provenanceCell(artifact),
    whyCell(artifact),
  ]);
}

export function snapshotPage(snapshot: SnapshotDisplay, pages: Pages): DetailPage {
  const lists: Record<string, number> = {};
  const columns = ['Artifact', 'Compliance', 'Change (instances)', 'Pods', 'Provenance', 'Why not compliant'];
  const body = html`<h1>Snapshot ${snapshot.title}</h1>
${verdictLine(snapshot.compliance)}
<p class="subtitle">${refLink(snapshot.environmentRef, snapshot.environment)}${snapshot.isLatest ? ' · latest' : ''}</p>
<nav class="pager" aria-label="Snapshots">
${snapshot.previous === null ? '' : refLink(snapshot.previous, 'Previous snapshot')}
${snapshot.comparedWithPrevious === null ? '' : refLink(snapshot.comparedWithPrevious, 'Compare with the previous snapshot')}
${snapshot.next === null ? '' : refLink(snapshot.next, 'Next snapshot')}
</nav>
${facts([
  ['Taken', snapshot.time ?? ''],
  ['Artifacts', snapshot.countsText],
])}
<h2>Running</h2>
${pagedTable('running', 'What runs in this snapshot', columns, artifactRows(snapshot.running), pages, lists)}
<h2>Exited</h2>
${pagedTable('exited', 'What ran in the snapshot before and stopped', columns, artifactRows(snapshot.exited), pages, lists)}
<h2>Policies applied</h2>
${pagedTable(
  'policies',
  'Policies this snapshot was judged by',
  ['Policy', 'Version', 'Failing artifacts'],
  snapshot.policies.map((policy) => [
    policy.name,
    String(policy.version),
    policy.failingArtifacts.map((artifact) => artifact.name).join(', '),
  ]),
  pages,
  lists,
)}`;
  return { title: `Snapshot ${snapshot.title}`, body, lists };
}

function comparedRows(artifacts: ComparedArtifactDisplay[]): SafeHtml[][] {
  return artifacts.map((artifact) => [
    refLink(artifact.ref, artifact.name),
    html`<code>${artifact.fingerprint ?? ''}</code>`,
    html`${artifact.flow}`,
    html`${artifact.was} → ${artifact.now}`,
    html`${artifact.startedAt ?? ''}`,
  ]);
}

export function comparisonPage(comparison: SnapshotComparisonDisplay, pages: Pages): DetailPage {
  const lists: Record<string, number> = {};
  const columns = ['Artifact', 'Fingerprint', 'Flow', 'Instances', 'Newest instance started'];
  const body = html`<h1>${comparison.from} ↔ ${comparison.to}</h1>
<p class="subtitle">From ${refLink(comparison.fromRef, comparison.from)} to ${refLink(comparison.toRef, comparison.to)}: ${comparison.started.length} started, ${comparison.exited.length} exited, ${comparison.changed.length} changed</p>
<h2>Started</h2>
${pagedTable('started', `Running in ${comparison.to}, not in ${comparison.from}`, columns, comparedRows(comparison.started), pages, lists)}
<h2>Exited</h2>
${pagedTable('exited', `Running in ${comparison.from}, not in ${comparison.to}`, columns, comparedRows(comparison.exited), pages, lists)}
<h2>Changed</h2>
${pagedTable('changed', 'Running in both with a different number of instances', columns, comparedRows(comparison.changed), pages, lists)}
<h2>Unchanged</h2>
${pagedTable('unchanged', 'Running in both alike', columns, comparedRows(comparison.unchanged), pages, lists)}`;
  return { title: `${comparison.from} ↔ ${comparison.to}`, body, lists };
}
