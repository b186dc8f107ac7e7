// The trail view: every template slot with its status and why, the artifacts, the commit, origin,
// user data and events, rendered from the shared display model (shared/display/trail.ts) that the
// server's trail page renders too.
import { html } from '../../../shared/html.ts';
import type { TrailDisplay } from '../../../shared/display/trail.ts';
import {
  facts,
  jsonBlock,
  pagedTable,
  refLink,
  status,
  urlItem,
  verdictLine,
  type DetailPage,
  type Pages,
} from './parts.ts';

export function trailPage(trail: TrailDisplay, pages: Pages): DetailPage {
  const lists: Record<string, number> = {};
  const commit = trail.commit;
  const body = html`<h1>Trail ${trail.title}</h1>
${verdictLine(trail.status)}
<p class="subtitle">Flow ${trail.flow}</p>
${trail.description === '' ? '' : html`<p>${trail.description}</p>`}
${facts([
  ['Created', trail.createdAt ?? ''],
  ['Created by', trail.createdBy],
  [
    'Commit',
    commit === null
      ? ''
      : html`<code>${commit.sha}</code>${commit.branch === '' ? '' : html` on ${commit.branch}`}${commit.author === '' ? '' : html` by ${commit.author}`}`,
  ],
  ['Commit message', commit?.message ?? ''],
  ['Commit URL', commit?.url ? refLink(commit.url.ref, commit.url.url) : ''],
  ['Origin', trail.origin ? refLink(trail.origin.ref, trail.origin.url) : ''],
])}
<h2>Template slots</h2>
${pagedTable(
  'slots',
  'Attestations the template asks for, and any others reported',
  ['Artifact', 'Attestation', 'Type', 'Status', 'Why'],
  trail.slots.map((slot) => [
    slot.artifact ?? '(trail)',
    slot.attestation === null ? slot.name : refLink(slot.attestation, slot.name),
    slot.type,
    status(slot.status),
    html`${slot.status.reason}${slot.overridden === null ? '' : html` (${refLink(slot.overridden, 'the overridden attestation')})`}`,
  ]),
  pages,
  lists,
)}
<h2>Artifacts</h2>
${pagedTable(
  'artifacts',
  'Artifacts of the trail',
  ['Name', 'Status', 'Fingerprint', 'Why'],
  trail.artifacts.map((artifact) => [
    artifact.ref === null ? artifact.name : refLink(artifact.ref, artifact.name),
    status(artifact.status),
    artifact.fingerprint === null ? '' : html`<code>${artifact.fingerprint}</code>`,
    artifact.status.reason,
  ]),
  pages,
  lists,
)}
${trail.externalUrls.length === 0 ? '' : html`<h2>External URLs</h2><ul>${trail.externalUrls.map(urlItem)}</ul>`}
${jsonBlock('User data', trail.userData)}
<h2>Events</h2>
${pagedTable(
  'events',
  'Events of the trail',
  ['Time', 'Event', 'Details'],
  trail.events.map((event) => [
    event.time ?? '',
    event.title,
    html`${event.subject === null ? '' : html`${refLink(event.subject.ref, event.subject.label)}${event.details === '' ? '' : ' · '}`}${event.details}`,
  ]),
  pages,
  lists,
)}`;
  return { title: `Trail ${trail.title}`, body, lists };
}
