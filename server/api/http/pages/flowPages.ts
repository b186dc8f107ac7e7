// The pages behind a flow's and an artifact's html_url (reference §1.8): `/{org}/flows` (the org's
// flows, paged), `/{org}/flows/{flow}` (the flow with a page of its trails) and
// `/{org}/flows/{flow}/artifacts/{fingerprint}` (where the artifact runs and ran, its attestations
// and provenance). Read through the API with the session's key; rendered from shared/display.
import type { FastifyInstance } from 'fastify';
import { artifactDisplay, type ArtifactDisplay, type PlacementDisplay } from '../../../../shared/display/artifact.ts';
import {
  flowDisplay,
  flowListDisplay,
  type FlowDisplay,
  type FlowListDisplay,
} from '../../../../shared/display/flow.ts';
import { isRecord } from '../../../../shared/display/links.ts';
import { html, type SafeHtml } from '../../../../shared/html.ts';
import { page, sendPage } from './layout.ts';
import {
  brief,
  jsonBlock,
  orgNav,
  pager,
  refLink,
  seg,
  status,
  table,
  urlItem,
  verdictLine,
  when,
  section,
} from './markup.ts';
import { bodyOf, pageNumberOf, pageRoute, PER_PAGE, type PageSite } from './reading.ts';

export function registerFlowPages(app: FastifyInstance, site: PageSite): void {
  pageRoute<{ org: string }, { page?: string }>(app, site, '/:org/flows', async (reader, request, reply) => {
    const { org } = request.params;
    const number = pageNumberOf(request.query.page);
    const list = bodyOf(await reader.get(`/flows/${seg(org)}?page=${number}&per_page=${PER_PAGE}`), 'organization');
    return sendPage(reply, 200, flowListPage(org, flowListDisplay(list)));
  });

  pageRoute<{ org: string; flow: string }, { page?: string }>(
    app,
    site,
    '/:org/flows/:flow',
    async (reader, request, reply) => {
      const { org, flow } = request.params;
      const number = pageNumberOf(request.query.page);
      const found = bodyOf(await reader.get(`/flows/${seg(org)}/${seg(flow)}`), 'flow');
      const trails = bodyOf(
        await reader.get(`/trails/${seg(org)}/${seg(flow)}?page=${number}&per_page=${PER_PAGE}`),
        'flow',
      );
      return sendPage(reply, 200, flowPage(org, flowDisplay(isRecord(found) ? found : {}, trails)));
    },
  );

  // `?trail=` picks the fingerprint's record in that trail; html_url's `?artifact_id=` has no API to
  // resolve it by, so the page shows the record the API answers first.
  pageRoute<{ org: string; flow: string; fingerprint: string }, { trail?: string }>(
    app,
    site,
    '/:org/flows/:flow/artifacts/:fingerprint',
    async (reader, request, reply) => {
      const { org, flow, fingerprint } = request.params;
      const trail =
        typeof request.query.trail === 'string' && request.query.trail !== ''
          ? `?trail=${seg(request.query.trail)}`
          : '';
      const found = bodyOf(
        await reader.get(`/artifacts/${seg(org)}/${seg(flow)}/fingerprint/${seg(fingerprint)}${trail}`),
        'artifact',
      );
      return sendPage(reply, 200, artifactPage(org, artifactDisplay(isRecord(found) ? found : {})));
    },
  );
}

function flowListPage(org: string, list: FlowListDisplay): SafeHtml {
  return page(
    `Flows — ${org}`,
    html`${orgNav(org)}
<h1>Flows of ${org}</h1>
${table(
  'Flows and the state of their latest trail',
  ['Flow', 'Latest state', 'Latest activity', 'Description'],
  list.flows.map((flow) => [
    refLink(org, flow.ref, flow.name),
    flow.problem ?? (flow.latestState === null ? 'no trails yet' : status(flow.latestState)),
    when(flow.latestActivityAt),
    brief(flow.description),
  ]),
  'No flows yet.',
)}
${pager('Pages of flows', list.paging, (number) => `/${seg(org)}/flows?page=${number}`)}`,
  );
}

function flowPage(org: string, flow: FlowDisplay): SafeHtml {
  return page(
    `${flow.name} — flows of ${org}`,
    html`${orgNav(org)}
<h1>Flow ${flow.name}</h1>
${flow.latestState === null ? '' : verdictLine({ ...flow.latestState, reason: `Latest trail: ${flow.latestState.reason}` })}
<p>${flow.visibility} · created ${when(flow.createdAt, 'at an unknown time')} by ${flow.createdBy}</p>
${flow.description === '' ? '' : html`<p>${flow.description}</p>`}
${flow.repo === null && flow.tags.length === 0 ? '' : html`<ul>${flow.repo === null ? '' : urlItem(org, flow.repo)}${flow.tags.map((tag) => html`<li>Tag ${tag.name}: ${tag.value}</li>`)}</ul>`}
<h2>Trails</h2>
${table(
  'Trails of the flow, newest first',
  ['Trail', 'Status', 'Commit', 'Last changed', 'Description'],
  flow.trails.map((trail) => [
    refLink(org, trail.ref, trail.name),
    trail.problem ?? status(trail.status),
    html`<code>${trail.commit}</code>`,
    when(trail.lastModifiedAt),
    brief(trail.description),
  ]),
  'No trails yet.',
)}
${pager('Pages of trails', flow.paging, (number) => `/${seg(org)}/flows/${seg(flow.name)}?page=${number}`)}
<details><summary>Template</summary><pre>${flow.template}</pre></details>`,
  );
}

function placements(org: string, caption: string, entries: PlacementDisplay[], empty: string): SafeHtml {
  return table(
    caption,
    ['Environment', 'Snapshot'],
    entries.map((entry) => [
      refLink(org, entry.environmentRef, entry.environment),
      refLink(org, entry.snapshotRef, entry.label),
    ]),
    empty,
  );
}

function artifactPage(org: string, artifact: ArtifactDisplay): SafeHtml {
  const { provenance } = artifact;
  return page(
    `${artifact.title} — artifact`,
    html`${orgNav(org)}
<h1>Artifact ${artifact.title}</h1>
${verdictLine(artifact.status)}
<p>Fingerprint <code>${artifact.fingerprint}</code> · created ${when(artifact.createdAt, 'at an unknown time')}</p>
<h2>Where it runs</h2>
${placements(org, 'Running now', artifact.running, 'Not running in any environment.')}
${artifact.exited.length === 0 ? '' : placements(org, 'Ran before', artifact.exited, '')}
<h2>Attestations</h2>
${table(
  'Attestations of the artifact',
  ['Attestation', 'Status'],
  artifact.attestations.map((entry) => [refLink(org, entry.ref, entry.name), status(entry.status)]),
  'No attestations yet.',
)}
<h2>Provenance</h2>
<ul>
<li>Flow ${refLink(org, provenance.flowRef, provenance.flow)}, trail ${refLink(org, provenance.trailRef, provenance.trail)}, template artifact ${provenance.templateReferenceName}</li>
${provenance.commit === null ? '' : html`<li>Commit <code>${provenance.commit.sha}</code>${provenance.commit.branch === '' ? '' : html` on ${provenance.commit.branch}`}${provenance.commit.author === '' ? '' : html` by ${provenance.commit.author}`}${provenance.commit.message === '' ? '' : html`: ${provenance.commit.message}`}</li>`}
${[provenance.commitUrl, provenance.buildUrl, provenance.repoUrl, ...artifact.externalUrls].map((url) => (url === null ? '' : urlItem(org, url)))}
</ul>
${jsonBlock('Annotations', artifact.annotations)}
${jsonBlock('User data', artifact.userData)}
${section(
  'History',
  artifact.history.length === 0
    ? []
    : [
        table(
          'What happened to the artifact',
          ['Time', 'Event'],
          artifact.history.map((entry) => [when(entry.time), entry.event]),
        ),
      ],
)}`,
  );
}
