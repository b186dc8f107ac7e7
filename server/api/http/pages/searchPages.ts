// The org's search, behind the search box on every page of an org: `/{org}/search?q=`. A value that
// can be a fingerprint or a commit (5 to 64 hex characters) is looked up by the API's search (spec
// endpoint 10: the one fingerprint or commit it starts, and its artifacts); any text also finds the
// flows, trails and artifacts whose names contain it (the search service), the latest first.
import type { FastifyInstance } from 'fastify';
import { artifactVerdict, trailVerdict } from '../../../../shared/compliance/vocabulary.ts';
import { isRecord, listOf, shortFingerprint, textOf, timeOf } from '../../../../shared/display/links.ts';
import { html, type SafeHtml } from '../../../../shared/html.ts';
import type { NameMatches } from '../../services/search.ts';
import { page, sendPage } from './layout.ts';
import { brief, orgNav, refLink, section, seg, status, table, when } from './markup.ts';
import { pageRoute, type Answer, type PageSite } from './reading.ts';

/** Matches of each kind a page shows at most. */
const SHOWN = 20;
const HASH = /^[0-9a-fA-F]{5,64}$/;

export function registerSearchPages(app: FastifyInstance, site: PageSite): void {
  pageRoute<{ org: string }, { q?: string }>(app, site, '/:org/search', async (reader, request, reply) => {
    const { org } = request.params;
    const query = typeof request.query.q === 'string' ? request.query.q.trim().slice(0, 200) : '';
    const found = await reader.org(org);
    if (query === '') return sendPage(reply, 200, searchPage(org, query, html``));
    const [names, hash] = await Promise.all([
      site.services.search.namesContaining(found, query, SHOWN),
      HASH.test(query) ? reader.get(`/search/${seg(org)}/sha/${seg(query)}`) : undefined,
    ]);
    return sendPage(reply, 200, searchPage(org, query, results(org, query, names, hash)));
  });
}

/** The artifacts a fingerprint or commit resolved to, or why it resolved to none. */
function hashSection(org: string, hash: Answer | undefined): SafeHtml {
  if (hash === undefined || hash.status === 404) return html``;
  if (hash.status !== 200 || !isRecord(hash.body))
    return html`<p>${isRecord(hash.body) ? textOf(hash.body.message) : 'The fingerprint search could not be read.'}</p>`;
  const resolved = isRecord(hash.body.resolved_to) ? hash.body.resolved_to : {};
  const kind = resolved.type === 'commit' ? 'Commit' : 'Fingerprint';
  return section(html`${kind} <code>${textOf(resolved.full_match)}</code>`, [
    table(
      `Artifacts with this ${kind.toLowerCase()}`,
      ['Artifact', 'Flow and trail', 'Compliance', 'Running in'],
      listOf(hash.body.artifacts).map((artifact) => {
        const flow = textOf(artifact.flow);
        const trail = textOf(artifact.trail);
        const fingerprint = textOf(artifact.fingerprint);
        return [
          refLink(org, { kind: 'artifact', flow, fingerprint, trail }, textOf(artifact.name) || fingerprint),
          html`${refLink(org, { kind: 'flow', flow }, flow)} / ${refLink(org, { kind: 'trail', flow, trail }, trail)}`,
          status(artifactVerdict(artifact.compliance_state)),
          Array.isArray(artifact.running_in) ? artifact.running_in.map(textOf).join(', ') : '',
        ];
      }),
    ),
  ]);
}

function more(shown: boolean, what: string): SafeHtml {
  return shown ? html`<p class="hint">More ${what} match than the ${SHOWN} shown: give more of the name.</p>` : html``;
}

function results(org: string, query: string, names: NameMatches, hash: Answer | undefined): SafeHtml {
  const none = names.flows.length + names.trails.length + names.artifacts.length === 0 && (hash?.status ?? 404) === 404;
  if (none) return html`<p role="status">Nothing in ${org} matches “${query}”.</p>`;
  return html`${hashSection(org, hash)}
${section(
  'Flows',
  names.flows.length === 0
    ? []
    : [
        table(
          `Flows whose name contains “${query}”`,
          ['Flow', 'Latest trail', 'Latest activity', 'Description'],
          names.flows.map((flow) => [
            refLink(org, { kind: 'flow', flow: flow.name }, flow.name),
            flow.latestState === null ? 'no trails yet' : status(trailVerdict(flow.latestState)),
            when(timeOf(flow.latestActivityAt)),
            brief(flow.description),
          ]),
        ),
        more(names.more.flows, 'flows'),
      ],
)}
${section(
  'Trails',
  names.trails.length === 0
    ? []
    : [
        table(
          `Trails whose name contains “${query}”`,
          ['Trail', 'Flow', 'Compliance', 'Last changed'],
          names.trails.map((trail) => [
            refLink(org, { kind: 'trail', flow: trail.flowName, trail: trail.name }, trail.name),
            refLink(org, { kind: 'flow', flow: trail.flowName }, trail.flowName),
            status(trailVerdict(trail.complianceState)),
            when(timeOf(trail.lastModifiedAt)),
          ]),
        ),
        more(names.more.trails, 'trails'),
      ],
)}
${section(
  'Artifacts',
  names.artifacts.length === 0
    ? []
    : [
        table(
          `Artifacts whose name contains “${query}”`,
          ['Artifact', 'Flow and trail', 'Compliance', 'Reported'],
          names.artifacts.map((artifact) => [
            html`${refLink(org, { kind: 'artifact', flow: artifact.flowName, fingerprint: artifact.fingerprint, trail: artifact.trailName }, artifact.filename)} <code title="${artifact.fingerprint}">${shortFingerprint(artifact.fingerprint)}</code>`,
            html`${refLink(org, { kind: 'flow', flow: artifact.flowName }, artifact.flowName)} / ${refLink(org, { kind: 'trail', flow: artifact.flowName, trail: artifact.trailName }, artifact.trailName)}`,
            status(artifactVerdict(artifact.trailState)),
            when(timeOf(artifact.createdAt)),
          ]),
        ),
        more(names.more.artifacts, 'artifacts'),
      ],
)}`;
}

function searchPage(org: string, query: string, found: SafeHtml): SafeHtml {
  return page(
    query === '' ? `Search — ${org}` : `${query} — search ${org}`,
    html`${orgNav(org, query)}
<h1>${query === '' ? html`Search ${org}` : html`Search ${org} for “${query}”`}</h1>
<p class="hint">A fingerprint or a commit (its first 5 characters or more), or part of the name of a flow, trail or artifact.</p>
${found}`,
  );
}
