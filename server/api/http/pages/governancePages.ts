// The pages of what an org holds its environments to: `/{org}/policies` and `/{org}/policies/{name}`
// (what a policy says, version by version, where it is attached and what happened to it), and
// `/{org}/controls` and `/{org}/controls/{identifier}` (a control, the policies that ask for it, how
// the environments attaching them stand, and the decisions taken on it, a page at a time; archived
// controls apart). Read through the API with the session's key; rendered from shared/display.
import type { FastifyInstance } from 'fastify';
import { controlDisplay, controlListDisplay, type ControlDisplay } from '../../../../shared/display/control.ts';
import type { ControlRowDisplay } from '../../../../shared/display/control.ts';
import { policyDisplay, policyListDisplay, type PolicyDisplay } from '../../../../shared/display/policy.ts';
import { html, type SafeHtml } from '../../../../shared/html.ts';
import { page, sendPage } from './layout.ts';
import { brief, list, orgNav, pager, refLink, section, seg, status, table, urlItem, when } from './markup.ts';
import { bodyOf, pageNumberOf, pageRoute, PER_PAGE, type PageSite } from './reading.ts';

export function registerGovernancePages(app: FastifyInstance, site: PageSite): void {
  pageRoute<{ org: string }, unknown>(app, site, '/:org/policies', async (reader, request, reply) => {
    const { org } = request.params;
    const policies = policyListDisplay(bodyOf(await reader.get(`/policies/${seg(org)}`), 'organization'));
    return sendPage(reply, 200, policyListPage(org, policies));
  });

  pageRoute<{ org: string; name: string }, unknown>(
    app,
    site,
    '/:org/policies/:name',
    async (reader, request, reply) => {
      const { org, name } = request.params;
      const found = bodyOf(await reader.get(`/policies/${seg(org)}/${seg(name)}`), 'policy');
      return sendPage(reply, 200, policyPage(org, policyDisplay(found as Record<string, unknown>)));
    },
  );

  pageRoute<{ org: string }, unknown>(app, site, '/:org/controls', async (reader, request, reply) => {
    const { org } = request.params;
    const answer = await reader.get(`/controls/${seg(org)}?per_page=100`);
    // Controls are a beta an org may have off: said so to a key that may read the org.
    if (answer.status === 403 && !(await reader.org(org)).features.controls)
      return sendPage(reply, 200, controlsOffPage(org));
    const live = controlListDisplay(bodyOf(answer, 'organization'));
    // The list asked for archived ones holds the live ones too.
    const archived = controlListDisplay(
      bodyOf(await reader.get(`/controls/${seg(org)}?archived=true&per_page=100`), 'organization'),
    ).controls.filter((control) => control.archived);
    return sendPage(reply, 200, controlListPage(org, live, archived));
  });

  pageRoute<{ org: string; identifier: string }, { page?: string }>(
    app,
    site,
    '/:org/controls/:identifier',
    async (reader, request, reply) => {
      const { org, identifier } = request.params;
      const base = `/controls/${seg(org)}/${seg(identifier)}`;
      const control = bodyOf(await reader.get(base), 'control');
      const number = pageNumberOf(request.query.page);
      const [decisions, coverage] = await Promise.all([
        reader.get(`${base}/decisions?page=${number}&per_page=${PER_PAGE}`),
        reader.get(`${base}/coverage`),
      ]);
      const display = controlDisplay(
        control as Record<string, unknown>,
        bodyOf(decisions, 'control'),
        bodyOf(coverage, 'control'),
      );
      return sendPage(reply, 200, controlPage(org, display));
    },
  );
}

function policyListPage(org: string, policies: PolicyDisplay[]): SafeHtml {
  return page(
    `Policies — ${org}`,
    html`${orgNav(org)}
<h1>Policies of ${org}</h1>
${table(
  'Environment policies, live ones first',
  ['Policy', 'Attached to', 'Latest version', 'Last changed', 'Description'],
  policies.map((policy) => [
    html`${refLink(org, policy.ref, policy.name)}${policy.archived ? ' (archived)' : ''}`,
    policy.attachedTo.length === 0
      ? 'nothing'
      : html`${policy.attachedTo.map((environment, position) => html`${position === 0 ? '' : ', '}${refLink(org, environment.ref, environment.name)}`)}`,
    String(policy.versions[0]?.version ?? ''),
    when(policy.lastModifiedAt),
    brief(policy.description),
  ]),
  'No policies yet.',
)}`,
  );
}

function policyPage(org: string, policy: PolicyDisplay): SafeHtml {
  const [current, ...older] = policy.versions;
  return page(
    `${policy.name} — policies of ${org}`,
    html`${orgNav(org)}
<h1>Policy ${policy.name}</h1>
${policy.archived ? html`<p class="verdict neutral"><strong>ARCHIVED</strong> It is kept for its history and judges nothing new.</p>` : ''}
${policy.description === '' ? '' : html`<p>${policy.description}</p>`}
<p>${
      policy.attachedTo.length === 0
        ? 'Attached to no environment.'
        : html`Attached to ${policy.attachedTo.map((environment, position) => html`${position === 0 ? '' : ', '}${refLink(org, environment.ref, environment.name)}`)}.`
    } Created ${when(policy.createdAt, 'at an unknown time')}, last changed ${when(policy.lastModifiedAt, 'never')}.</p>
${
  current === undefined
    ? ''
    : html`<h2>Version ${current.version}, the current one</h2>
<p>Written ${when(current.createdAt, 'at an unknown time')} by ${current.createdBy}${current.comment === '' ? '' : html`: ${current.comment}`}</p>
<pre class="document" tabindex="0">${current.yaml}</pre>`
}
${section(
  'Earlier versions',
  older.length === 0
    ? []
    : [
        table(
          'Earlier versions of the policy, newest first',
          ['Version', 'Written', 'By', 'Comment'],
          older.map((version) => [
            String(version.version),
            when(version.createdAt),
            version.createdBy,
            version.comment,
          ]),
        ),
        older.map(
          (version) =>
            html`<details><summary>Version ${version.version}</summary><pre class="document" tabindex="0">${version.yaml}</pre></details>`,
        ),
      ],
)}
${section(
  'History',
  policy.events.length === 0
    ? []
    : [
        table(
          'What happened to the policy, newest first',
          ['Time', 'Event', 'By'],
          policy.events.map((event) => [
            when(event.time),
            event.environment === null ? event.event : refLink(org, event.environment, event.event),
            event.user,
          ]),
        ),
      ],
)}`,
  );
}

function controlsOffPage(org: string): SafeHtml {
  return page(
    `Controls — ${org}`,
    html`${orgNav(org)}
<h1>Controls of ${org}</h1>
<p role="status">Controls (a beta) are turned off for ${org}: its configuration says <code>features: {controls: false}</code>.</p>`,
  );
}

function controlRows(org: string, controls: ControlRowDisplay[]): SafeHtml[][] {
  return controls.map((control) => [
    control.problem === null ? refLink(org, control.ref, control.identifier) : html`${control.identifier}`,
    html`${control.problem ?? control.name}`,
    html`${String(control.version)}`,
    list(control.policies.map((policy) => html`<li>${refLink(org, { kind: 'policy', policy }, policy)}</li>`)),
  ]);
}

function controlListPage(
  org: string,
  live: ReturnType<typeof controlListDisplay>,
  archived: ControlRowDisplay[],
): SafeHtml {
  const columns = ['Control', 'Name', 'Version', 'Asked for by'];
  return page(
    `Controls — ${org}`,
    html`${orgNav(org)}
<h1>Controls of ${org}</h1>
${table('Controls in force', columns, controlRows(org, live.controls), 'No controls yet.')}
${live.total > live.controls.length ? html`<p class="hint">The first ${live.controls.length} of ${live.total} controls.</p>` : ''}
${section('Archived', archived.length === 0 ? [] : [table('Archived controls', columns, controlRows(org, archived))])}`,
  );
}

function controlPage(org: string, control: ControlDisplay): SafeHtml {
  return page(
    `${control.identifier} — controls of ${org}`,
    html`${orgNav(org)}
<h1>Control ${control.identifier}: ${control.name}</h1>
${control.archived ? html`<p class="verdict neutral"><strong>ARCHIVED</strong> It is kept for its decisions; policies no longer ask for it.</p>` : ''}
${control.description === '' ? '' : html`<p>${control.description}</p>`}
<p>Version ${control.version} · created ${when(control.createdAt, 'at an unknown time')}</p>
${list([...control.links.map((url) => urlItem(org, url)), ...control.tags.map((tag) => html`<li>Tag ${tag.name}: ${tag.value}</li>`)])}
<h2>Asked for by</h2>
${
  control.policies.length === 0
    ? html`<p>No policy asks for a decision on it.</p>`
    : table(
        'Environments whose attached policies ask for it, and their running artifacts by whether a decision covers them',
        ['Environment', 'Policies', 'Running', 'Covered', 'Not covered'],
        control.coverage.map((entry) => [
          refLink(org, entry.ref, entry.environment),
          html`${entry.policies.map((policy, position) => html`${position === 0 ? '' : ', '}${refLink(org, { kind: 'policy', policy }, policy)}`)}`,
          String(entry.running),
          String(entry.covered),
          String(entry.notCovered),
        ]),
        html`Policies ${control.policies.map((policy, position) => html`${position === 0 ? '' : ', '}${refLink(org, policy.ref, policy.name)}`)} ask for it; no environment attaches them.`,
      )
}
<h2>Decisions</h2>
${table(
  'Decisions on the control, newest first',
  ['Time', 'Decision', 'Attestation', 'Trail', 'Artifact', 'Description'],
  control.decisions.map((decision) => [
    when(decision.time),
    status(decision.verdict),
    refLink(org, decision.ref, decision.name),
    html`${refLink(org, { kind: 'flow', flow: decision.flow }, decision.flow)} / ${refLink(org, decision.trailRef, decision.trail)}`,
    decision.artifact === null ? '' : refLink(org, decision.artifact.ref, decision.artifact.name),
    brief(decision.description),
  ]),
  'No decisions yet.',
)}
${pager('Pages of decisions', control.paging, (number) => `/${seg(org)}/controls/${seg(control.identifier)}?page=${number}`)}`,
  );
}
