// The trail page behind every trail's and attestation's html_url: `/{org}/flows/{flow}/trails/{trail}`
// (with `?attestation_id=` it shows that attestation too) and its evidence download. The data comes
// from the JSON API in-process with the session's key, so the API's org access rules decide what
// a page may show; the view models of shared/views decide how it reads.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { attestationDisplay, type AttestationDisplay, type TableDisplay } from '../../../../shared/views/attestation.ts';
import type { ViewRef, ViewUrl } from '../../../../shared/views/links.ts';
import { trailDisplay, type TrailDisplay } from '../../../../shared/views/trail.ts';
import { html, link, type SafeHtml } from './html.ts';
import { page, sendPage } from './layout.ts';
import type { Sessions } from './sessions.ts';

const seg = encodeURIComponent;

interface TrailParams {
  org: string;
  flow: string;
  trail: string;
}

export function registerTrailPages(app: FastifyInstance, sessions: Sessions): void {
  const publicRoute = { config: { public: true }, schema: { hide: true } };

  const apiGet = async (key: string, url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

  const refused = (reply: FastifyReply, status: number, message: string) =>
    sendPage(reply, status, page('Compliance Evidence', html`<h1>Compliance Evidence</h1><p class="error" role="alert">${message}</p><p><a href="/">Home</a></p>`));

  app.get<{ Params: TrailParams; Querystring: { attestation_id?: string } }>('/:org/flows/:flow/trails/:trail', publicRoute, async (request, reply) => {
    const key = sessions.keyOf(request);
    if (key === undefined) return reply.code(303).header('location', '/sign-in').send();
    const { org, flow, trail } = request.params;
    const answer = await apiGet(key, `/api/v2/trails/${seg(org)}/${seg(flow)}/${seg(trail)}`);
    if (answer.statusCode !== 200) return refused(reply, answer.statusCode === 403 || answer.statusCode === 401 ? 403 : 404, 'No such trail for your key.');
    const display = trailDisplay(answer.json());
    let attestation: AttestationDisplay | undefined;
    const attestationId = request.query.attestation_id;
    if (typeof attestationId === 'string' && attestationId !== '') {
      const found = await apiGet(key, `/api/v2/attestations/${seg(org)}?attestation_id=${seg(attestationId)}&per_page=1`);
      const record = found.statusCode === 200 ? (found.json().data?.[0] as Record<string, unknown> | undefined) : undefined;
      if (record !== undefined && record.flow_name === flow && record.trail_name === trail) attestation = attestationDisplay(record);
    }
    return sendPage(reply, 200, trailPage(org, display, attestation));
  });

  app.get<{ Params: TrailParams & { id: string } }>('/:org/flows/:flow/trails/:trail/evidence/:id', publicRoute, async (request, reply) => {
    const key = sessions.keyOf(request);
    if (key === undefined) return reply.code(303).header('location', '/sign-in').send();
    const { org, flow, trail, id } = request.params;
    const answer = await apiGet(key, `/api/v2/attestations/${seg(org)}/${seg(flow)}/trail/${seg(trail)}/attestation/${seg(id)}/evidence`);
    if (answer.statusCode !== 200) return refused(reply, 404, 'No such evidence for your key.');
    // Always a download, never rendered by the browser as a page of ours.
    const disposition = String(answer.headers['content-disposition'] ?? 'attachment; filename="evidence"').replace(/^inline/, 'attachment');
    return reply
      .code(200)
      .headers({ 'content-type': 'application/octet-stream', 'content-disposition': disposition, 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox", 'cache-control': 'no-store' })
      .send(answer.rawPayload);
  });
}

function hrefOf(org: string, ref: ViewRef): string | null {
  switch (ref.kind) {
    case 'trail':
      return `/${seg(org)}/flows/${seg(ref.flow)}/trails/${seg(ref.trail)}`;
    case 'attestation':
      return `/${seg(org)}/flows/${seg(ref.flow)}/trails/${seg(ref.trail)}?attestation_id=${seg(ref.attestationId)}`;
    case 'evidence':
      return `/${seg(org)}/flows/${seg(ref.flow)}/trails/${seg(ref.trail)}/evidence/${seg(ref.attestationId)}`;
    case 'external':
      return ref.url;
    default:
      return null;
  }
}

function refLink(org: string, ref: ViewRef | null, label: string): SafeHtml {
  const href = ref === null ? null : hrefOf(org, ref);
  return href === null ? html`${label}` : link(href, label);
}

function urlItem(org: string, url: ViewUrl): SafeHtml {
  return html`<li>${url.label}: ${refLink(org, url.ref, url.url)}</li>`;
}

function table(caption: string, columns: string[], rows: (string | SafeHtml)[][]): SafeHtml {
  return html`<table><caption>${caption}</caption><thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
<tbody>${rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody></table>`;
}

function jsonBlock(heading: string, text: string | null): SafeHtml {
  return text === null ? html`` : html`<h3>${heading}</h3><pre>${text}</pre>`;
}

function trailPage(org: string, trail: TrailDisplay, attestation: AttestationDisplay | undefined): SafeHtml {
  return page(
    `${trail.title} — ${trail.flow}`,
    html`<p><a href="/">Home</a></p>
<h1>Trail ${trail.title}</h1>
<p>Flow ${trail.flow} · <strong class="status">${trail.status}</strong> · created ${trail.createdAt ?? 'unknown'} by ${trail.createdBy}</p>
${trail.description === '' ? '' : html`<p>${trail.description}</p>`}
${attestation === undefined ? '' : attestationSection(org, attestation)}
<h2>Template slots</h2>
${table('Attestations the template asks for, and any others reported', ['Artifact', 'Attestation', 'Type', 'Status', 'Why'], trail.slots.map((slot) => [slot.artifact ?? '(trail)', refLink(org, slot.attestation, slot.name), slot.type, slot.status, slot.why]))}
<h2>Artifacts</h2>
${table('Artifacts of the trail', ['Name', 'Status', 'Fingerprint', 'Why'], trail.artifacts.map((artifact) => [artifact.name, artifact.status, artifact.fingerprint ?? '', artifact.why]))}
<h2>Source</h2>
<ul>
${trail.commit === null ? '' : html`<li>Commit ${trail.commit.sha} on ${trail.commit.branch} by ${trail.commit.author}: ${trail.commit.message}${trail.commit.url === null ? '' : html` (${refLink(org, trail.commit.url.ref, trail.commit.url.url)})`}</li>`}
${trail.origin === null ? '' : urlItem(org, trail.origin)}
${trail.externalUrls.map((url) => urlItem(org, url))}
</ul>
${jsonBlock('User data', trail.userData)}
<h2>Events</h2>
${table('Events of the trail', ['Time', 'Event', 'Details'], trail.events.map((event) => [event.time ?? '', event.type, html`<pre>${event.details ?? ''}</pre>`]))}`,
  );
}

function attestationSection(org: string, attestation: AttestationDisplay): SafeHtml {
  return html`<section aria-labelledby="attestation-heading">
<h2 id="attestation-heading">Attestation ${attestation.title}</h2>
<p>${attestation.type} · <strong class="status">${attestation.status}</strong> · reported ${attestation.createdAt ?? 'unknown'} by ${attestation.reportedBy}</p>
${attestation.description === '' ? '' : html`<p>${attestation.description}</p>`}
${attestation.summary === '' ? '' : html`<p>${attestation.summary}</p>`}
${attestation.tables.map((entry: TableDisplay) => table(entry.caption, entry.columns, entry.rows))}
${jsonBlock('Data', attestation.data)}
<ul>
${attestation.origin === null ? '' : urlItem(org, attestation.origin)}
${attestation.externalUrls.map((url) => urlItem(org, url))}
${attestation.evidence === null ? '' : html`<li>Evidence: ${refLink(org, attestation.evidence.ref, attestation.evidence.name)}</li>`}
</ul>
${jsonBlock('Annotations', attestation.annotations)}
${jsonBlock('User data', attestation.userData)}
</section>`;
}
