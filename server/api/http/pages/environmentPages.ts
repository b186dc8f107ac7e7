// The pages behind an environment's html_url (reference §1.8): `/{org}/environments` (paged) and
// `/{org}/environments/{env}` (what runs now, compliance over time as a table and a chart, a page of
// snapshots at a time, the attached policies), and its audit log as a download; its snapshots'
// pages are snapshotPages.ts. Read through the API with the session's key; rendered from
// shared/display. The chart is the SVG markup of shared/display/chart.ts.
import type { FastifyInstance } from 'fastify';
import {
  environmentDisplay,
  environmentListDisplay,
  type EnvironmentDisplay,
  type EnvironmentListDisplay,
} from '../../../../shared/display/environment.ts';
import { isRecord, pagingOf, type PagingDisplay } from '../../../../shared/display/links.ts';
import { snapshotDisplay, type SnapshotDisplay } from '../../../../shared/display/snapshot.ts';
import { relativeTime } from '../../../../shared/display/time.ts';
import { html, type SafeHtml } from '../../../../shared/html.ts';
import { page, sendPage } from './layout.ts';
import { notFound } from './refusals.ts';
import { generatedMarkup, orgNav, pager, refLink, seg, status, table, verdictLine, when, list } from './markup.ts';
import { bodyOf, downloadDisposition, pageNumberOf, pageRoute, PER_PAGE, type PageSite } from './reading.ts';

interface EnvironmentParams {
  org: string;
  env: string;
}

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
      // Newest first, one page of snapshots at a time, each with its counts: one read for the page.
      const paging = pagingOf(pageNumberOf(request.query.page), PER_PAGE, count);
      const newest = count - (paging.page - 1) * PER_PAGE;
      const snapshots =
        newest < 1
          ? []
          : await site.services.snapshots.talliesOf(
              await reader.org(org),
              env,
              Math.max(1, newest - PER_PAGE + 1),
              newest,
            );
      const policyNames = Array.isArray(environment.policies)
        ? environment.policies.filter((name): name is string => typeof name === 'string')
        : [];
      const policies = await Promise.all(
        policyNames.map(async (name) => (await reader.get(`/policies/${seg(org)}/${seg(name)}`)).body),
      );
      const display = environmentDisplay(environment, snapshots, policies.filter(isRecord));
      // What runs now is the latest snapshot's, read whole.
      const latest =
        count === 0 ? undefined : bodyOf(await reader.get(`/snapshots/${seg(org)}/${seg(env)}/${count}`), 'snapshot');
      const runningNow = isRecord(latest) ? snapshotDisplay(env, latest) : null;
      return sendPage(reply, 200, environmentPage(org, display, paging, runningNow));
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
        throw notFound('environment');
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
    html`${environment.policies.map((policy, position) => html`${position === 0 ? '' : ', '}${refLink(org, { kind: 'policy', policy }, policy)}`)}`,
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

/** The artifacts of the latest snapshot: each one's name, compliance and why, and how many instances run. */
function runningNowSection(org: string, environment: EnvironmentDisplay, latest: SnapshotDisplay | null): SafeHtml {
  if (latest === null) return html`<h2>Running now</h2><p>Nothing has been reported yet.</p>`;
  return html`<h2>Running now</h2>
${table(
  `What runs in ${environment.name} now (snapshot #${latest.index}, taken ${latest.time === null ? 'at an unknown time' : relativeTime(latest.time, Date.now())})`,
  ['Artifact', 'Compliance', 'Why', 'Instances'],
  latest.running.map((artifact) => [
    refLink(org, artifact.ref, artifact.name),
    status(artifact.compliance),
    artifact.failedRules.length === 0
      ? artifact.compliance.reason
      : list(artifact.failedRules.map((rule) => html`<li>${rule.policy}, ${rule.rule}: ${rule.reason}</li>`)),
    String(artifact.instances.now),
  ]),
  'Nothing runs.',
)}`;
}

/** The shown snapshots' compliance as a chart and a table, newest first. */
function complianceOverTime(org: string, environment: EnvironmentDisplay): SafeHtml {
  return html`<h2>Compliance over time</h2>
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
)}`;
}

function environmentPage(
  org: string,
  environment: EnvironmentDisplay,
  paging: PagingDisplay,
  latest: SnapshotDisplay | null,
): SafeHtml {
  const base = `/${seg(org)}/environments/${seg(environment.name)}`;
  return page(
    `${environment.name} — environments of ${org}`,
    html`${orgNav(org)}
<h1>Environment ${environment.name}</h1>
${verdictLine(environment.compliance)}
<p>${environment.type} · ${environment.snapshotCount === 1 ? '1 snapshot' : `${environment.snapshotCount} snapshots`} · last reported ${when(environment.lastReportedAt, 'never')}</p>
${environment.description === '' ? '' : html`<p>${environment.description}</p>`}
<ul class="inline">
${environment.latest === null ? '' : html`<li>${refLink(org, environment.latest, 'Latest snapshot')}</li>`}
<li><a href="${base}/auditlog">Audit log (CSV)</a></li>
</ul>
${environment.includedEnvironments.length === 0 ? '' : html`<p>Includes ${environment.includedEnvironments.map((included, position) => html`${position === 0 ? '' : ', '}${refLink(org, included.ref, included.name)}`)}</p>`}
${runningNowSection(org, environment, latest)}
${environment.snapshotCount === 0 ? '' : complianceOverTime(org, environment)}
${pager('Pages of snapshots', paging, (number) => `${base}?page=${number}`)}
${compareForm(base, environment.snapshotCount)}
<h2>Policies</h2>
${table(
  'Policies attached to the environment',
  ['Policy', 'Version applied', 'Description'],
  environment.policies.map((policy) => [
    refLink(org, { kind: 'policy', policy: policy.name }, policy.name),
    policy.version === null ? 'not yet applied' : String(policy.version),
    policy.description,
  ]),
  'No policies attached: snapshots are not compliant until one is.',
)}
${environment.policies.map((policy) => (policy.yaml === null ? '' : html`<details><summary>Policy ${policy.name}${policy.version === null ? '' : html`, version ${policy.version}`}</summary><pre>${policy.yaml}</pre></details>`))}`,
  );
}
