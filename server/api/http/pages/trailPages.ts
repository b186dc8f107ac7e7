// The trail page behind every trail's and attestation's html_url: `/{org}/flows/{flow}/trails/{trail}`
// (with `?attestation_id=` it shows that attestation too) and its evidence download. The data comes
// from the JSON API in-process with the session's key, so the API's org access rules decide what
// a page may show; the display models of shared/display decide how it reads.
import type { FastifyInstance } from 'fastify';
import {
  attestationDisplay,
  type AttestationDisplay,
  type TableDisplay,
} from '../../../../shared/display/attestation.ts';
import { isRecord, shortFingerprint } from '../../../../shared/display/links.ts';
import { slotAttestationIds, trailDisplay, type TrailDisplay } from '../../../../shared/display/trail.ts';
import { html, type SafeHtml } from '../../../../shared/html.ts';
import { page, sendPage } from './layout.ts';
import { notFound } from './refusals.ts';
import { jsonBlock, orgNav, refLink, seg, status, table, urlItem, verdictLine, when, list, section } from './markup.ts';
import { bodyOf, downloadDisposition, pageRoute, type PageSite } from './reading.ts';

interface TrailParams {
  org: string;
  flow: string;
  trail: string;
}

export function registerTrailPages(app: FastifyInstance, site: PageSite): void {
  pageRoute<TrailParams, { attestation_id?: string }>(
    app,
    site,
    '/:org/flows/:flow/trails/:trail',
    async (reader, request, reply) => {
      const { org, flow, trail } = request.params;
      const found = bodyOf(await reader.get(`/trails/${seg(org)}/${seg(flow)}/${seg(trail)}`), 'trail');
      const record = isRecord(found) ? found : {};
      // Why each slot has its verdict, in words: the API answers the verdicts, a service the reasons.
      const summaries = await site.services.trails.attestationSummaries(
        await reader.org(org),
        flow,
        trail,
        slotAttestationIds(record),
      );
      const display = trailDisplay(record, summaries);
      let attestation: ShownAttestation | undefined;
      const attestationId = request.query.attestation_id;
      if (typeof attestationId === 'string' && attestationId !== '') {
        const answer = await reader.get(`/attestations/${seg(org)}?attestation_id=${seg(attestationId)}&per_page=1`);
        const data =
          answer.status === 200 && isRecord(answer.body) && Array.isArray(answer.body.data) ? answer.body.data : [];
        const record: unknown = data[0];
        if (isRecord(record) && record.flow_name === flow && record.trail_name === trail)
          attestation = { ...attestationDisplay(record), id: attestationId };
      }
      return sendPage(reply, 200, trailPage(org, display, attestation));
    },
  );

  pageRoute<TrailParams & { id: string }, unknown>(
    app,
    site,
    '/:org/flows/:flow/trails/:trail/evidence/:id',
    async (reader, request, reply) => {
      const { org, flow, trail, id } = request.params;
      const answer = await reader.raw(
        `/attestations/${seg(org)}/${seg(flow)}/trail/${seg(trail)}/attestation/${seg(id)}/evidence`,
      );
      if (answer.status !== 200) {
        answer.body.destroy();
        throw notFound('evidence');
      }
      // Always a download, never rendered by the browser as a page of ours.
      const disposition = downloadDisposition(answer.headers, 'attachment; filename="evidence"');
      return reply
        .code(200)
        .headers({
          'content-type': 'application/octet-stream',
          'content-disposition': disposition,
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          'cache-control': 'no-store',
        })
        .send(answer.body);
    },
  );
}

/** An attestation shown on its trail's page, with its id to find its slot by. */
type ShownAttestation = AttestationDisplay & { id: string };

function trailPage(org: string, trail: TrailDisplay, attestation: ShownAttestation | undefined): SafeHtml {
  const source = sourceItems(org, trail);
  return page(
    `${trail.title} — ${trail.flow}`,
    html`${orgNav(org)}
<h1>Trail ${trail.title}</h1>
${verdictLine(trail.status)}
<p>Flow ${refLink(org, { kind: 'flow', flow: trail.flow }, trail.flow)} · created ${when(trail.createdAt, 'at an unknown time')} by ${trail.createdBy}</p>
${trail.description === '' ? '' : html`<p>${trail.description}</p>`}
${attestation === undefined ? '' : attestationSection(org, trail, attestation)}
${section(
  'Template slots',
  trail.slots.length === 0
    ? []
    : [
        table(
          'Attestations the template asks for, and any others reported',
          ['Artifact', 'Attestation', 'Type', 'Status', 'Why'],
          trail.slots.map((slot) => [
            slot.artifact ?? '(trail)',
            refLink(org, slot.attestation, slot.name),
            slot.type,
            status(slot.status),
            html`${slot.status.reason}${slot.overridden === null ? '' : html` (${refLink(org, slot.overridden, 'the overridden attestation')})`}`,
          ]),
        ),
      ],
)}
${section(
  'Artifacts',
  trail.artifacts.length === 0
    ? []
    : [
        table(
          'Artifacts of the trail',
          ['Name', 'Status', 'Fingerprint', 'Why'],
          trail.artifacts.map((artifact) => [
            refLink(org, artifact.ref, artifact.name),
            status(artifact.status),
            html`<code>${artifact.fingerprint ?? ''}</code>`,
            artifact.status.reason,
          ]),
        ),
      ],
)}
${section('Source', source.length === 0 ? [] : [list(source)])}
${jsonBlock('User data', trail.userData)}
<h2>Events</h2>
${table(
  'Events of the trail',
  ['Time', 'Event', 'Details'],
  trail.events.map((event) => [
    when(event.time),
    event.title,
    html`${event.subject === null ? '' : html`${refLink(org, event.subject.ref, event.subject.label)}${event.details === '' ? '' : ' · '}`}${event.details}`,
  ]),
)}`,
  );
}

/** Where the trail's change came from: its commit, origin and links. */
function sourceItems(org: string, trail: TrailDisplay): SafeHtml[] {
  const commit = trail.commit;
  return [
    ...(commit === null
      ? []
      : [
          html`<li>Commit ${commit.sha} on ${commit.branch} by ${commit.author}: ${commit.message}${commit.url === null ? '' : html` (${refLink(org, commit.url.ref, commit.url.url)})`}</li>`,
        ]),
    ...(trail.origin === null ? [] : [urlItem(org, trail.origin)]),
    ...trail.externalUrls.map((url) => urlItem(org, url)),
  ];
}

function attestationSection(org: string, trail: TrailDisplay, attestation: ShownAttestation): SafeHtml {
  // Why it has its verdict, as its slot says it; its artifact by the name the trail gives it.
  const slot = trail.slots.find(
    (entry) => entry.attestation?.kind === 'attestation' && entry.attestation.attestationId === attestation.id,
  );
  const fingerprint = attestation.artifact?.kind === 'artifact' ? attestation.artifact.fingerprint : '';
  const artifactName = trail.artifacts.find((artifact) => artifact.fingerprint === fingerprint)?.name;
  return html`<section aria-labelledby="attestation-heading">
<h2 id="attestation-heading">Attestation ${attestation.title}</h2>
<p>${attestation.type} · ${status(attestation.status)} · reported ${when(attestation.createdAt, 'at an unknown time')} by ${attestation.reportedBy}</p>
${slot === undefined || attestation.status.state === 'COMPLIANT' ? '' : html`<p class="verdict ${slot.status.colour}">Why: ${slot.status.reason}</p>`}
${attestation.description === '' ? '' : html`<p>${attestation.description}</p>`}
${attestation.summary === '' ? '' : html`<p>${attestation.summary}</p>`}
${attestation.tables.map((entry: TableDisplay) => table(entry.caption, entry.columns, entry.rows))}
${jsonBlock('Data', attestation.data)}
${list([
  ...(attestation.origin === null ? [] : [urlItem(org, attestation.origin)]),
  ...attestation.externalUrls.map((url) => urlItem(org, url)),
  ...(attestation.artifact === null
    ? []
    : [
        html`<li>Artifact: ${refLink(org, attestation.artifact, artifactName === undefined ? fingerprint : html`${artifactName} (${shortFingerprint(fingerprint)})`)}</li>`,
      ]),
  ...(attestation.evidence === null
    ? []
    : [html`<li>Evidence: ${refLink(org, attestation.evidence.ref, attestation.evidence.name)}</li>`]),
])}
${jsonBlock('Annotations', attestation.annotations)}
${jsonBlock('User data', attestation.userData)}
</section>`;
}
