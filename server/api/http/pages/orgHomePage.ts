// An org's home page, `/{org}`: how its environments stand (how many in each state, then each one
// with its state and why, those that need attention first) and the trails that turned non-compliant
// lately, each linked to its page. Read from the overview service for an org the key may read.
import type { FastifyInstance } from 'fastify';
import { environmentVerdict, trailVerdict, type ShownState } from '../../../../shared/compliance/vocabulary.ts';
import { timeOf } from '../../../../shared/display/links.ts';
import { html, type SafeHtml } from '../../../../shared/html.ts';
import type { OrgOverview } from '../../services/overview.ts';
import { page, sendPage } from './layout.ts';
import { brief, hrefOf, orgNav, refLink, status, table, when } from './markup.ts';
import { pageRoute, type PageSite } from './reading.ts';

/** Non-compliant trails the page lists at most. */
const TRAILS_SHOWN = 10;

/** States in the order they need attention: what fails first, what holds last. */
const ATTENTION: readonly ShownState[] = [
  'NON-COMPLIANT',
  'UNKNOWN',
  'INCOMPLETE',
  'MISSING',
  'NOT REPORTED',
  'NO POLICY',
  'COMPLIANT',
];

export function registerOrgHomePage(app: FastifyInstance, site: PageSite): void {
  pageRoute<{ org: string }, unknown>(app, site, '/:org', async (reader, request, reply) => {
    const { org } = request.params;
    const overview = await site.services.overview.of(await reader.org(org), TRAILS_SHOWN);
    return sendPage(reply, 200, orgHomePage(org, overview));
  });
}

function environmentsSection(org: string, overview: OrgOverview): SafeHtml {
  const rows = overview.environments
    .map((environment) => ({
      environment,
      verdict: environmentVerdict(environment.state, environment.policies.length, environment.snapshotCount),
    }))
    .sort((a, b) => ATTENTION.indexOf(a.verdict.state) - ATTENTION.indexOf(b.verdict.state));
  const tally = ATTENTION.map((state) => {
    const of = rows.filter((row) => row.verdict.state === state);
    return of.length === 0 ? '' : html`<li>${of.length} ${status(of[0].verdict)}</li>`;
  });
  return html`<h2>Environments by compliance</h2>
${rows.length === 0 ? '' : html`<ul class="inline tally" aria-label="Environments in each state">${tally}</ul>`}
${table(
  'Environments, those that need attention first',
  ['Environment', 'Compliance', 'Why', 'Last reported'],
  rows.map(({ environment, verdict }) => [
    refLink(org, { kind: 'environment', environment: environment.name }, environment.name),
    status(verdict),
    verdict.reason,
    when(timeOf(environment.lastReportedAt), 'never'),
  ]),
  html`No environments yet: <a href="${hrefOf(org, { kind: 'environments' })}">the environments page</a> says how to report one.`,
)}`;
}

function orgHomePage(org: string, overview: OrgOverview): SafeHtml {
  return page(
    `${org} — Compliance Evidence`,
    html`${orgNav(org)}
<h1>${org}</h1>
${environmentsSection(org, overview)}
<h2>Trails that turned non-compliant lately</h2>
${table(
  'Non-compliant trails, the most recently changed first',
  ['Trail', 'Flow', 'Compliance', 'Last changed', 'Description'],
  overview.nonCompliantTrails.map((trail) => [
    refLink(org, { kind: 'trail', flow: trail.flowName, trail: trail.name }, trail.name),
    refLink(org, { kind: 'flow', flow: trail.flowName }, trail.flowName),
    status(trailVerdict(trail.complianceState)),
    when(timeOf(trail.lastModifiedAt)),
    brief(trail.description),
  ]),
  'No trail is non-compliant.',
)}
${overview.nonCompliantTrails.length < TRAILS_SHOWN ? '' : html`<p class="hint">The ${TRAILS_SHOWN} changed last; <a href="${hrefOf(org, { kind: 'flows' })}">the flows</a> list every trail.</p>`}`,
  );
}
