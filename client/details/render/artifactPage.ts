// The artifact view: where it runs now and where it ran (linked to those snapshots), the
// attestations made of it, and its provenance, from the shared display model (shared/display/artifact.ts).
import { html } from '../../../shared/html.ts';
import type { ArtifactDisplay, PlacementDisplay } from '../../../shared/display/artifact.ts';
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

export function artifactPage(artifact: ArtifactDisplay, pages: Pages): DetailPage {
  const lists: Record<string, number> = {};
  const provenance = artifact.provenance;
  const placements = (name: string, caption: string, entries: PlacementDisplay[]) =>
    pagedTable(
      name,
      caption,
      ['Environment', 'Snapshot'],
      entries.map((entry) => [
        refLink(entry.environmentRef, entry.environment),
        refLink(entry.snapshotRef, entry.label),
      ]),
      pages,
      lists,
    );
  const body = html`<h1>Artifact ${artifact.title}</h1>
${verdictLine(artifact.status)}
<p class="subtitle"><code>${artifact.fingerprint}</code></p>
<h2>Runs now</h2>
${placements('running', 'Environments where it runs in the latest snapshot', artifact.running)}
<h2>Ran before</h2>
${placements('exited', 'Snapshots where it ran and then exited', artifact.exited)}
<h2>Attestations</h2>
${pagedTable(
  'attestations',
  'Attestations of the artifact',
  ['Attestation', 'Status', 'Id'],
  artifact.attestations.map((entry) => [
    refLink(entry.ref, entry.name),
    status(entry.status),
    html`<code>${entry.id}</code>`,
  ]),
  pages,
  lists,
)}
<h2>Provenance</h2>
${facts([
  ['Flow', provenance.flow],
  ['Trail', provenance.trail === '' ? '' : refLink(provenance.trailRef, provenance.trail)],
  ['Template slot', provenance.templateReferenceName],
  [
    'Commit',
    provenance.commit === null
      ? ''
      : html`<code>${provenance.commit.sha}</code>${provenance.commit.branch === '' ? '' : html` on ${provenance.commit.branch}`}${provenance.commit.author === '' ? '' : html` by ${provenance.commit.author}`}`,
  ],
  ['Commit message', provenance.commit?.message ?? ''],
  ['Created', artifact.createdAt ?? ''],
])}
${
  [provenance.commitUrl, provenance.buildUrl, provenance.repoUrl].some((url) => url !== null) ||
  artifact.externalUrls.length > 0
    ? html`<ul>${[provenance.commitUrl, provenance.buildUrl, provenance.repoUrl].map((url) => (url === null ? '' : urlItem(url)))}${artifact.externalUrls.map(urlItem)}</ul>`
    : ''
}
<h2>History</h2>
${pagedTable(
  'history',
  'What happened to the artifact',
  ['Time', 'Event'],
  artifact.history.map((entry) => [entry.time ?? '', entry.event]),
  pages,
  lists,
)}
${jsonBlock('Annotations', artifact.annotations)}
${jsonBlock('User data', artifact.userData)}`;
  return { title: `Artifact ${artifact.title}`, body, lists };
}
