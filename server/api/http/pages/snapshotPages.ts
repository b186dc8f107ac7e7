// The pages of an environment's snapshots, behind a snapshot's html_url (reference §1.8):
// `/{org}/environments/{env}/snapshots/{index}` (what runs, each artifact's compliance and the rule
// that failed, what stopped, the policies applied and the artifacts each fails) and
// `/{org}/environments/{env}/compare` (started, exited and changed between two snapshots). Read
// through the API with the session's key; rendered from shared/display.
import type { FastifyInstance } from 'fastify';
import { isRecord, pagingOf, shortFingerprint } from '../../../../shared/display/links.ts';
import {
  snapshotDisplay,
  type SnapshotArtifactDisplay,
  type SnapshotDisplay,
} from '../../../../shared/display/snapshot.ts';
import {
  snapshotComparisonDisplay,
  type ComparedArtifactDisplay,
  type SnapshotComparisonDisplay,
} from '../../../../shared/display/snapshotComparison.ts';
import { html, type SafeHtml } from '../../../../shared/html.ts';
import { ENVIRONMENT_NAME_PART } from '../../../../shared/names.ts';
import { page, sendPage } from './layout.ts';
import { list, orgNav, pager, refLink, section, seg, status, table, urlItem, verdictLine, when } from './markup.ts';
import { notFound } from './refusals.ts';
import { bodyOf, pageNumberOf, pageRoute, PER_PAGE, type Answer, type PageSite, type Reader } from './reading.ts';

interface EnvironmentParams {
  org: string;
  env: string;
}

/** A snapshot as the diff endpoint takes it: a bare index of this environment, or `env#N`. */
const SNAPPISH = new RegExp(`^(\\d{1,9}|${ENVIRONMENT_NAME_PART}#\\d{1,9})$`);

/**
 * The snapshots an environment has, as help on a refusal: their range and the latest, once the
 * environment itself can be read with the key (nothing otherwise, so it tells nothing).
 */
async function snapshotRange(reader: Reader, org: string, env: string): Promise<SafeHtml> {
  const answer = await reader.get(`/environments/${seg(org)}/${seg(env)}`);
  if (answer.status !== 200 || !isRecord(answer.body)) return html``;
  const count = typeof answer.body.snapshot_count === 'number' ? answer.body.snapshot_count : 0;
  const environment = refLink(org, { kind: 'environment', environment: env }, env);
  if (count === 0) return html`<p>${environment} has no snapshots yet.</p>`;
  const latest = refLink(org, { kind: 'snapshot', environment: env, index: count }, `${env}#${count}`);
  return html`<p>The snapshots of ${environment} are #1 to #${count}; the latest is ${latest}.</p>`;
}

/** The answer's body, or not found with the snapshots the environment has. */
async function snapshotBody(reader: Reader, answer: Answer, what: string, org: string, env: string): Promise<unknown> {
  if (answer.status === 200 || answer.status >= 500) return bodyOf(answer, what);
  throw notFound(what, await snapshotRange(reader, org, env));
}

export function registerSnapshotPages(app: FastifyInstance, site: PageSite): void {
  pageRoute<EnvironmentParams & { index: string }, { page?: string }>(
    app,
    site,
    '/:org/environments/:env/snapshots/:index',
    async (reader, request, reply) => {
      const { org, env, index } = request.params;
      const answer: Answer = /^[1-9]\d{0,8}$/.test(index)
        ? await reader.get(`/snapshots/${seg(org)}/${seg(env)}/${index}`)
        : { status: 404, body: null };
      const found = await snapshotBody(reader, answer, 'snapshot', org, env);
      const display = snapshotDisplay(env, isRecord(found) ? found : {});
      return sendPage(reply, 200, snapshotPage(org, display, pageNumberOf(request.query.page)));
    },
  );

  pageRoute<EnvironmentParams, { from?: string; to?: string }>(
    app,
    site,
    '/:org/environments/:env/compare',
    async (reader, request, reply) => {
      const { org, env } = request.params;
      const side = (value: string | undefined, otherwise: string): string | undefined => {
        if (value === undefined || value === '') return otherwise;
        if (!SNAPPISH.test(value)) return undefined;
        return /^\d+$/.test(value) ? `${env}#${value}` : value;
      };
      // Without both sides: the latest snapshot against the one before it.
      const later = side(request.query.to, env);
      const earlier = side(request.query.from, `${env}~1`);
      const answer: Answer =
        later === undefined || earlier === undefined
          ? { status: 404, body: null }
          : await reader.get(`/env-diff/${seg(org)}?snappish1=${seg(earlier)}&snappish2=${seg(later)}`);
      const diff = await snapshotBody(reader, answer, 'comparison of those snapshots', org, env);
      return sendPage(reply, 200, comparisonPage(org, env, snapshotComparisonDisplay(isRecord(diff) ? diff : {})));
    },
  );
}

function artifactRows(org: string, artifacts: SnapshotArtifactDisplay[]): SafeHtml[][] {
  return artifacts.map((artifact) => [
    html`${refLink(org, artifact.ref, artifact.name)}${artifact.fingerprint === null ? '' : html`<br><code>${artifact.fingerprint}</code>`}`,
    status(artifact.compliance),
    html`${artifact.change} (${artifact.instances.was} → ${artifact.instances.now})${artifact.pods.length === 0 ? '' : html`<br>${artifact.pods.join(', ')}`}`,
    artifact.provenance.length === 0
      ? html`none`
      : html`<ul>${artifact.provenance.map(
          (entry) =>
            html`<li>${refLink(org, entry.flowRef, entry.flow)}${entry.trailRef === null ? '' : html` / ${refLink(org, entry.trailRef, entry.trail)}`}${entry.gitCommit === '' ? '' : html` at <code>${entry.gitCommit}</code>`}${[entry.commitUrl, entry.buildUrl].map((url) => (url === null ? '' : html`<br>${refLink(org, url.ref, url.url)}`))}</li>`,
        )}</ul>`,
    artifact.failedRules.length > 0
      ? html`<ul>${artifact.failedRules.map((rule) => html`<li>Policy ${rule.policy} (version ${rule.version}), rule ${rule.rule}: ${rule.reason}</li>`)}</ul>`
      : artifact.compliance.state === 'NON-COMPLIANT'
        ? html`<ul>${artifact.reasons.map((reason) => html`<li>${reason}</li>`)}</ul>`
        : html``,
  ]);
}

function snapshotPage(org: string, snapshot: SnapshotDisplay, pageNumber: number): SafeHtml {
  const paging = pagingOf(pageNumber, PER_PAGE, snapshot.running.length);
  const shown = snapshot.running.slice((paging.page - 1) * PER_PAGE, paging.page * PER_PAGE);
  const columns = ['Artifact', 'Compliance', 'Change and instances', 'Provenance', 'Failed rules'];
  return page(
    `Snapshot ${snapshot.title}`,
    html`${orgNav(org)}
<h1>Snapshot ${snapshot.title}</h1>
${verdictLine(snapshot.compliance)}
<p>Taken ${when(snapshot.time, 'at an unknown time')}${snapshot.isLatest ? ' · the latest' : ''} · environment ${refLink(org, snapshot.environmentRef, snapshot.environment)}</p>
<p class="counts">${snapshot.countsText}</p>
<nav aria-label="Other snapshots"><ul class="inline">
${snapshot.previous === null ? '' : html`<li>${refLink(org, snapshot.previous, 'Previous snapshot')}</li>`}
${snapshot.next === null ? '' : html`<li>${refLink(org, snapshot.next, 'Next snapshot')}</li>`}
${snapshot.comparedWithPrevious === null ? '' : html`<li>${refLink(org, snapshot.comparedWithPrevious, 'Compare with the previous snapshot')}</li>`}
</ul></nav>
<h2>What runs</h2>
${table('Artifacts running in the snapshot', columns, artifactRows(org, shown), 'Nothing runs.')}
${pager('Pages of running artifacts', paging, (number) => `/${seg(org)}/environments/${seg(snapshot.environment)}/snapshots/${snapshot.index}?page=${number}`)}
${section(
  'Stopped running',
  snapshot.exited.length === 0
    ? []
    : [table('Artifacts that ran in the snapshot before and stopped', columns, artifactRows(org, snapshot.exited))],
)}
<h2>Policies applied</h2>
${table(
  'Policies applied to the snapshot',
  ['Policy', 'Version', 'Artifacts that fail it'],
  snapshot.policies.map((policy) => [
    policy.name,
    String(policy.version),
    list(
      policy.failingArtifacts.map(
        (artifact) =>
          html`<li>${refLink(org, artifact.ref, artifact.name)}${artifact.name === artifact.fingerprint ? '' : html` <code title="${artifact.fingerprint}">${shortFingerprint(artifact.fingerprint)}</code>`}</li>`,
      ),
    ),
  ]),
  'No policies applied.',
)}`,
  );
}

function comparedRows(org: string, artifacts: ComparedArtifactDisplay[]): SafeHtml[][] {
  return artifacts.map((artifact) => [
    html`${refLink(org, artifact.ref, artifact.name)}${artifact.fingerprint === null ? '' : html`<br><code>${artifact.fingerprint}</code>`}`,
    html`${artifact.was} → ${artifact.now}`,
    html`${artifact.flow}`,
    artifact.commitUrl === null ? html`` : html`<ul>${urlItem(org, artifact.commitUrl)}</ul>`,
  ]);
}

function comparisonPage(org: string, environment: string, comparison: SnapshotComparisonDisplay): SafeHtml {
  const columns = ['Artifact', 'Instances', 'Flow', 'Commit'];
  return page(
    `Compare ${comparison.from} with ${comparison.to}`,
    html`${orgNav(org)}
<h1>Snapshot ${comparison.from} compared with ${comparison.to}</h1>
<p>From ${refLink(org, comparison.fromRef, comparison.from)} to ${refLink(org, comparison.toRef, comparison.to)} · environment ${refLink(org, { kind: 'environment', environment }, environment)}</p>
<p class="counts">${comparison.started.length} started, ${comparison.exited.length} exited, ${comparison.changed.length} changed, ${comparison.unchanged.length} unchanged</p>
${(
  [
    ['Started', 'Artifacts that started running', comparison.started],
    ['Exited', 'Artifacts that stopped running', comparison.exited],
    ['Changed', 'Artifacts whose instance count changed', comparison.changed],
    ['Unchanged', 'Artifacts running in both, unchanged', comparison.unchanged],
  ] as const
).map(([heading, caption, artifacts]) =>
  section(heading, artifacts.length === 0 ? [] : [table(caption, columns, comparedRows(org, artifacts))]),
)}`,
  );
}
