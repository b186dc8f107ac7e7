// The attestation view: its data rendered for its type (tables and a one-line summary from the
// shared display model, shared/display/attestation.ts), annotations, URLs, and its evidence file with
// Open and Save. A slot nothing has filled yet gets a view that says so instead of an error.
import { verdictOf } from '../../../shared/compliance/vocabulary.ts';
import { html } from '../../../shared/html.ts';
import type { AttestationDisplay } from '../../../shared/display/attestation.ts';
import type { SlotDisplay } from '../../../shared/display/trail.ts';
import {
  action,
  facts,
  jsonBlock,
  open,
  pagedTable,
  refLink,
  urlItem,
  verdictLine,
  type DetailPage,
  type Pages,
} from './parts.ts';

export function attestationPage(attestation: AttestationDisplay, pages: Pages): DetailPage {
  const lists: Record<string, number> = {};
  const evidence = attestation.evidence;
  const evidenceRef = evidence?.ref.kind === 'evidence' ? evidence.ref : null;
  const body = html`<h1>Attestation ${attestation.title}</h1>
${verdictLine(attestation.status)}
<p class="subtitle">${attestation.type} · trail ${refLink(attestation.trailRef, attestation.trail)} of flow ${attestation.flow}</p>
${attestation.description === '' ? '' : html`<p>${attestation.description}</p>`}
${attestation.summary === '' ? '' : html`<p class="summary">${attestation.summary}</p>`}
${facts([
  ['Reported', attestation.createdAt ?? ''],
  ['Reported by', attestation.reportedBy],
  [
    'Artifact',
    attestation.artifact === null
      ? ''
      : refLink(attestation.artifact, attestation.artifact.kind === 'artifact' ? attestation.artifact.fingerprint : ''),
  ],
  ['Origin', attestation.origin ? refLink(attestation.origin.ref, attestation.origin.url) : ''],
])}
${attestation.tables.map((entry, index) => html`<h2>${entry.caption}</h2>${pagedTable(`table${index}`, entry.caption, entry.columns, entry.rows, pages, lists)}`)}
${jsonBlock('Data', attestation.data)}
${
  evidence === null || evidenceRef === null
    ? ''
    : html`<h2>Evidence</h2>
<p><code>${evidence.name}</code></p>
<ul class="actions">
<li>${action('Open evidence', { type: 'evidence', action: 'open', flow: evidenceRef.flow, trail: evidenceRef.trail, attestationId: evidenceRef.attestationId }, 'button')}</li>
<li>${action('Save evidence…', { type: 'evidence', action: 'save', flow: evidenceRef.flow, trail: evidenceRef.trail, attestationId: evidenceRef.attestationId }, 'button')}</li>
</ul>`
}
${attestation.externalUrls.length === 0 ? '' : html`<h2>External URLs</h2><ul>${attestation.externalUrls.map(urlItem)}</ul>`}
${jsonBlock('Annotations', attestation.annotations)}
${jsonBlock('User data', attestation.userData)}`;
  return { title: `Attestation ${attestation.title}`, body, lists };
}

/** A template slot with no attestation in it yet. */
export function missingAttestationPage(
  flow: string,
  trail: string,
  name: string,
  slot: SlotDisplay | undefined,
): DetailPage {
  const body = html`<h1>Attestation ${name}</h1>
${verdictLine(slot?.status ?? verdictOf('MISSING', `No attestation named ${name} has been reported in this trail.`))}
<p class="subtitle">Trail ${open(trail, { kind: 'trail', flow, trail })} of flow ${flow}</p>`;
  return { title: `Attestation ${name}`, body, lists: {} };
}
