// The environment view: compliance over time as a chart (the shared SVG function's markup, the one
// piece of markup not written here: it holds only numbers and text it escaped itself), the
// snapshots behind it, the attached policies, and the audit log.
import { html, SafeHtml } from '../../../shared/html.ts';
import type { EnvironmentDisplay } from '../../../shared/display/environment.ts';
import { textOf, timeOf } from '../../../shared/display/links.ts';
import { facts, open, pagedTable, refLink, status, verdictLine, type DetailPage, type Pages } from './parts.ts';

/** One audit log entry, read from `GET /environments/{org}/{env}/events` (reference §5.6). */
export interface AuditEntry {
  time: string;
  type: string;
  snapshot: number | null;
  artifact: string;
  fingerprint: string;
  description: string;
}

export function auditEntriesOf(events: readonly Record<string, unknown>[]): AuditEntry[] {
  return events.map((event) => ({
    time: timeOf(event.reported_at) ?? '',
    type: textOf(event.type),
    snapshot:
      typeof event.snapshot_index === 'number' && Number.isSafeInteger(event.snapshot_index) && event.snapshot_index > 0
        ? event.snapshot_index
        : null,
    artifact: textOf(event.artifact_name),
    fingerprint: textOf(event.sha256),
    description: textOf(event.description),
  }));
}

export function environmentPage(environment: EnvironmentDisplay, audit: AuditEntry[], pages: Pages): DetailPage {
  const lists: Record<string, number> = {};
  const shown = environment.snapshots.length;
  const body = html`<h1>Environment ${environment.name}</h1>
${verdictLine(environment.compliance)}
<p class="subtitle">${environment.type}</p>
${environment.description === '' ? '' : html`<p>${environment.description}</p>`}
${facts([
  ['Last report', environment.lastReportedAt ?? ''],
  ['Last change', environment.lastChangedAt ?? ''],
  ['Snapshots', String(environment.snapshotCount)],
  [
    'Latest',
    environment.latest === null ? '' : refLink(environment.latest, `${environment.name}#${environment.snapshotCount}`),
  ],
  [
    'Includes',
    environment.includedEnvironments.length === 0
      ? ''
      : html`${environment.includedEnvironments.map((included, index) => html`${index === 0 ? '' : ', '}${refLink(included.ref, included.name)}`)}`,
  ],
])}
<h2>Compliance over time</h2>
<p class="empty">${shown < environment.snapshotCount ? `The latest ${shown} of ${environment.snapshotCount} snapshots.` : `All ${shown} snapshots.`}</p>
<figure class="chart">${new SafeHtml(environment.chart)}</figure>
${pagedTable(
  'snapshots',
  'Artifacts by compliance per snapshot',
  ['Snapshot', 'Taken', 'Compliance', 'Compliant', 'Non-compliant', 'Unknown', ''],
  environment.snapshots.map((row) => [
    refLink(row.ref, row.title),
    row.time ?? '',
    status(row.compliance),
    String(row.counts.compliant),
    String(row.counts.nonCompliant),
    String(row.counts.unknown),
    row.comparedWithPrevious === null ? '' : refLink(row.comparedWithPrevious, 'compare with previous'),
  ]),
  pages,
  lists,
)}
<h2>Attached policies</h2>
${pagedTable(
  'policies',
  'Policies attached to the environment',
  ['Policy', 'Version applied last', 'Description', 'Rules'],
  environment.policies.map((policy) => [
    policy.name,
    policy.version === null ? '' : String(policy.version),
    policy.description,
    policy.yaml === null ? '' : html`<details><summary>YAML</summary><pre>${policy.yaml}</pre></details>`,
  ]),
  pages,
  lists,
)}
<h2>Audit log</h2>
${pagedTable(
  'audit',
  'What started, changed and exited, newest first',
  ['Time', 'Event', 'Snapshot', 'Artifact', 'Fingerprint', 'Description'],
  audit.map((entry) => [
    entry.time,
    entry.type,
    entry.snapshot === null
      ? ''
      : open(`#${entry.snapshot}`, { kind: 'snapshot', environment: environment.name, index: entry.snapshot }),
    entry.artifact,
    html`<code>${entry.fingerprint}</code>`,
    entry.description,
  ]),
  pages,
  lists,
)}`;
  return { title: `Environment ${environment.name}`, body, lists };
}
