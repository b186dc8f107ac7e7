// The pages behind an environment's and a snapshot's html_url (reference §1.8): `/{org}/environments`
// (paged), `/{org}/environments/{env}` (compliance over time as a table and a chart, a page of
// snapshots at a time, the attached policies), `/{org}/environments/{env}/snapshots/{index}` (what
// runs, each artifact's compliance and the rule that failed) and `/{org}/environments/{env}/compare`
// (started, exited and changed between two snapshots), and its audit log as a download. Read through the API with the session's
// key; rendered from shared/display. The chart is the SVG markup of shared/display/chart.ts.
import type { FastifyInstance } from 'fastify';
import {
  environmentDisplay,
  environmentListDisplay,
  type EnvironmentDisplay,
  type EnvironmentListDisplay,
} from '../../../../shared/display/environment.ts';
import { isRecord, pagingOf, shortFingerprint, type PagingDisplay } from '../../../../shared/display/links.ts';
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
import {
  generatedMarkup,
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
  list,
} from './markup.ts';
import {
  bodyOf,
  downloadDisposition,
  pageNumberOf,
  pageRoute,
  PageRefused,
  PER_PAGE,
  type PageSite,
} from './reading.ts';

interface EnvironmentParams {
  org: string;
  env: string;
}

/** A snapshot as the diff endpoint takes it: a bare index of this environment, or `env#N`. */
const SNAPPISH = new RegExp(`^(\\d{1,9}|${ENVIRONMENT_NAME_PART}#\\d{1,9})$`);

export function registerEnvironmentPages(app: FastifyInstance, site: PageSite): void {
  pageRoute<{ org: string }, { page?: string }>(app, site, '/:org/environments', async (reader, request, reply) => {
    const { org } = request.params;
    const number = pageNumberOf(request.query.page);
    const list = bodyOf(
      await reader.get(`/environments/${seg(org)}?page=${number}&per_page=${PER_PAGE}`),
      'organization',
    );
    return sendPage(reply, 200, environmentListPage(org, environmentListDisplay(list)));
  });

  pageRoute<EnvironmentParams, { page?: string }>(
    app,
    site,
    '/:org/environments/:env',
    async (reader, request, reply) => {
      const { org, env } = request.params;
      const found = bodyOf(await reader.get(`/environments/${seg(org)}/${seg(env)}`), 'environment');
      const environment = isRecord(found) ? found : {};
      const count = typeof environment.snapshot_count === 'number' ? environment.snapshot_count : 0;
      // Newest first, one page of snapshots at a time; each snapshot object carries its counts.
      const paging = pagingOf(pageNumberOf(request.query.page), PER_PAGE, count);
      const newest = count - (paging.page - 1) * PER_PAGE;
      const indexes = Array.from({ length: Math.max(0, Math.min(PER_PAGE, newest)) }, (_, offset) => newest - offset);
      const snapshots = await Promise.all(
        indexes.map(async (index) =>
          bodyOf(await reader.get(`/snapshots/${seg(org)}/${seg(env)}/${index}`), 'snapshot'),
        ),
      );
      const policyNames = Array.isArray(environment.policies)
        ? environment.policies.filter((name): name is string => typeof name === 'string')
        : [];
      const policies = await Promise.all(
        policyNames.map(async (name) => (await reader.get(`/policies/${seg(org)}/${seg(name)}`)).body),
      );
      const display = environmentDisplay(environment, snapshots.filter(isRecord), policies.filter(isRecord));
      return sendPage(reply, 200, environmentPage(org, display, paging));
    },
  );

  pageRoute<EnvironmentParams, unknown>(
    app,
    site,
    '/:org/environments/:env/auditlog',
    async (reader, request, reply) => {
      const { org, env } = request.params;
      const answer = await reader.raw(`/environments/${seg(org)}/${seg(env)}/auditlog`);
      if (answer.status !== 200) {
        answer.body.destroy();
        throw new PageRefused(404, 'No such environment for your key.');
      }
      // A download of the API's CSV (its cells already neutralised against formulas), never a page.
      return reply
        .code(200)
        .headers({
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': downloadDisposition(answer.headers, 'attachment; filename="auditlog.csv"'),
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          'cache-control': 'no-store',
        })
        .send(answer.body);
    },
  );

  pageRoute<EnvironmentParams & { index: string }, { page?: string }>(
    app,
    site,
    '/:org/environments/:env/snapshots/:index',
    async (reader, request, reply) => {
      const { org, env, index } = request.params;
      if (!/^[1-9]\d{0,8}$/.test(index)) throw new PageRefused(404, 'No such snapshot for your key.');
      const found = bodyOf(await reader.get(`/snapshots/${seg(org)}/${seg(env)}/${index}`), 'snapshot');
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
      const side = (value: string | undefined, otherwise: string): string => {
        if (value === undefined || value === '') return otherwise;
        if (!SNAPPISH.test(value)) throw new PageRefused(404, 'No such snapshots for your key.');
        return /^\d+$/.test(value) ? `${env}#${value}` : value;
      };
      // Without both sides: the latest snapshot against the one before it.
      const later = side(request.query.to, env);
      const earlier = side(request.query.from, `${env}~1`);
      const diff = bodyOf(
        await reader.get(`/env-diff/${seg(org)}?snappish1=${seg(earlier)}&snappish2=${seg(later)}`),
        'snapshots',
      );
      return sendPage(reply, 200, comparisonPage(org, env, snapshotComparisonDisplay(isRecord(diff) ? diff : {})));
    },
  );
}

function environmentListPage(org: string, list: EnvironmentListDisplay): SafeHtml {
  return page(
    `Environments — ${org}`,
    html`${orgNav(org)}
<h1>Environments of ${org}</h1>
${table(
  'Environments and the compliance of their latest snapshot',
  ['Environment', 'Type', 'Compliance', 'Snapshots', 'Last reported', 'Policies'],
  list.environments.map((environment) => [
    refLink(org, environment.ref, environment.name),
    environment.type,
    environment.problem ?? status(environment.compliance),
    String(environment.snapshotCount),
    when(environment.lastReportedAt, 'never'),
    environment.policies.join(', '),
  ]),
  'No environments yet.',
)}
${pager('Pages of environments', list.paging, (number) => `/${seg(org)}/environments?page=${number}`)}`,
  );
}

/**
 * Two snapshots to compare, by number, filled in with the latest and the one before it (the
 * comparison a visitor most often wants is one press away); none for fewer than two snapshots.
 */
function compareForm(base: string, count: number): SafeHtml {
  if (count < 2) return html``;
  return html`<h2>Compare two snapshots</h2>
<form method="get" action="${base}/compare" class="compare">
<label for="compare-from">Earlier snapshot<input id="compare-from" name="from" inputmode="numeric" pattern="[0-9]+" required value="${count - 1}" aria-describedby="compare-range"></label>
<label for="compare-to">Later snapshot<input id="compare-to" name="to" inputmode="numeric" pattern="[0-9]+" required value="${count}" aria-describedby="compare-range"></label>
<button type="submit">Compare</button>
<p id="compare-range" class="hint">Snapshots #1 to #${count}.</p>
</form>`;
}

function environmentPage(org: string, environment: EnvironmentDisplay, paging: PagingDisplay): SafeHtml {
  const base = `/${seg(org)}/environments/${seg(environment.name)}`;
  return page(
    `${environment.name} — environments of ${org}`,
    html`${orgNav(org)}
<h1>Environment ${environment.name}</h1>
${verdictLine(environment.compliance)}
<p>${environment.type} · ${environment.snapshotCount} snapshots · last reported ${when(environment.lastReportedAt, 'never')}</p>
${environment.description === '' ? '' : html`<p>${environment.description}</p>`}
<ul class="inline">
${environment.latest === null ? '' : html`<li>${refLink(org, environment.latest, 'Latest snapshot')}</li>`}
<li><a href="${base}/auditlog">Audit log (CSV)</a></li>
</ul>
${environment.includedEnvironments.length === 0 ? '' : html`<p>Includes ${environment.includedEnvironments.map((included, position) => html`${position === 0 ? '' : ', '}${refLink(org, included.ref, included.name)}`)}</p>`}
<h2>Compliance over time</h2>
<figure class="chart">${generatedMarkup(environment.chart)}<figcaption>Artifacts by compliance in each snapshot shown below (green compliant, red non-compliant, grey unknown).</figcaption></figure>
${table(
  'Artifacts by compliance per snapshot, newest first',
  ['Snapshot', 'Time', 'Compliance', 'Compliant', 'Non-compliant', 'Unknown', 'Changes'],
  environment.snapshots.map((snapshot) => [
    refLink(org, snapshot.ref, snapshot.title),
    when(snapshot.time),
    status(snapshot.compliance),
    String(snapshot.counts.compliant),
    String(snapshot.counts.nonCompliant),
    String(snapshot.counts.unknown),
    snapshot.comparedWithPrevious === null
      ? ''
      : refLink(org, snapshot.comparedWithPrevious, `Compare with #${snapshot.index - 1}`),
  ]),
  'No snapshots yet.',
)}
${pager('Pages of snapshots', paging, (number) => `${base}?page=${number}`)}
${compareForm(base, environment.snapshotCount)}
<h2>Policies</h2>
${table(
  'Policies attached to the environment',
  ['Policy', 'Version applied', 'Description'],
  environment.policies.map((policy) => [
    policy.name,
    policy.version === null ? 'not yet applied' : String(policy.version),
    policy.description,
  ]),
  'No policies attached: snapshots are not compliant until one is.',
)}
${environment.policies.map((policy) => (policy.yaml === null ? '' : html`<details><summary>Policy ${policy.name}${policy.version === null ? '' : html`, version ${policy.version}`}</summary><pre>${policy.yaml}</pre></details>`))}`,
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
