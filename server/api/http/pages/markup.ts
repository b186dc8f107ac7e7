// The pieces every page is built from, all through the one escaping template: links for the view
// models' typed references (a page of ours, or a user URL only when it is http(s)), tables with
// header cells, pretty-printed JSON as text, status words, pagers and the org's navigation.
import type { Verdict } from '../../../../shared/compliance/vocabulary.ts';
import type { PagingDisplay, ViewRef, ViewUrl } from '../../../../shared/display/links.ts';
import { exactTime, relativeTime } from '../../../../shared/display/time.ts';
import { html, link, SafeHtml, type HtmlValue } from '../../../../shared/html.ts';

export const seg = encodeURIComponent;

/** The page a reference points at, inside `org`; null when it has none. */
export function hrefOf(org: string, ref: ViewRef): string | null {
  const flowPath = (flow: string) => `/${seg(org)}/flows/${seg(flow)}`;
  const trailPath = (flow: string, trail: string) => `${flowPath(flow)}/trails/${seg(trail)}`;
  const environmentPath = (environment: string) => `/${seg(org)}/environments/${seg(environment)}`;
  switch (ref.kind) {
    case 'flows':
      return `/${seg(org)}/flows`;
    case 'flow':
      return flowPath(ref.flow);
    case 'trail':
      return trailPath(ref.flow, ref.trail);
    case 'attestation':
      return `${trailPath(ref.flow, ref.trail)}?attestation_id=${seg(ref.attestationId)}`;
    case 'evidence':
      return `${trailPath(ref.flow, ref.trail)}/evidence/${seg(ref.attestationId)}`;
    case 'artifact':
      return `${flowPath(ref.flow)}/artifacts/${seg(ref.fingerprint)}${ref.trail === undefined ? '' : `?trail=${seg(ref.trail)}`}`;
    case 'environments':
      return `/${seg(org)}/environments`;
    case 'environment':
      return environmentPath(ref.environment);
    case 'snapshot':
      return `${environmentPath(ref.environment)}/snapshots/${ref.index}`;
    case 'comparison':
      // Compared within the later snapshot's environment; an earlier one elsewhere goes as env#N.
      return `${environmentPath(ref.to.environment)}/compare?from=${ref.from.environment === ref.to.environment ? ref.from.index : seg(`${ref.from.environment}#${ref.from.index}`)}&to=${ref.to.index}`;
    case 'org':
      return `/${seg(org)}`;
    case 'policies':
      return `/${seg(org)}/policies`;
    case 'policy':
      return `/${seg(org)}/policies/${seg(ref.policy)}`;
    case 'controls':
      return `/${seg(org)}/controls`;
    case 'control':
      return `/${seg(org)}/controls/${seg(ref.identifier)}`;
    case 'external':
      return ref.url;
  }
}

export function refLink(org: string, ref: ViewRef | null, label: HtmlValue): SafeHtml {
  const href = ref === null ? null : hrefOf(org, ref);
  return href === null ? html`${label}` : link(href, label);
}

export function urlItem(org: string, url: ViewUrl): SafeHtml {
  return html`<li>${url.label}: ${refLink(org, url.ref, url.url)}</li>`;
}

/**
 * A table with a caption and column headers; an empty body says so in one row. It sits in a box
 * of its own that scrolls sideways on a narrow screen (a region named by the caption, which a
 * keyboard can focus and scroll), so the page itself never does.
 */
export function table(caption: string, columns: string[], rows: HtmlValue[][], empty: HtmlValue = 'None.'): SafeHtml {
  const body =
    rows.length === 0
      ? html`<tr><td colspan="${columns.length}">${empty}</td></tr>`
      : rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`);
  return html`<div class="table" role="region" aria-label="${caption}" tabindex="0"><table><caption>${caption}</caption><thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
<tbody>${body}</tbody></table></div>`;
}

/** A heading and what it heads, or nothing when there is nothing under it: no page shows an empty section. */
export function section(heading: HtmlValue, content: readonly HtmlValue[]): SafeHtml {
  return content.length === 0 ? html`` : html`<h2>${heading}</h2>${content}`;
}

/** A list of the items, or nothing when there are none. */
export function list(items: readonly HtmlValue[]): SafeHtml {
  return items.length === 0 ? html`` : html`<ul>${items}</ul>`;
}

export function jsonBlock(heading: string, text: string | null): SafeHtml {
  return text === null ? html`` : html`<h3>${heading}</h3><pre>${text}</pre>`;
}

/** A state's word (shared/compliance/vocabulary.ts) coloured by its colour token, so colour is an addition to the word, never instead of it; its reason on hover. */
export function status(verdict: Verdict): SafeHtml {
  return html`<strong class="status ${verdict.colour}" title="${verdict.reason}">${verdict.state}</strong>`;
}

/** The verdict of the page's subject and its reason, at the top of the page. */
export function verdictLine(verdict: Verdict): SafeHtml {
  return html`<p class="verdict ${verdict.colour}">${status(verdict)} <span>${verdict.reason}</span></p>`;
}

/** Previous / next links of a long list; `hrefOfPage` keeps the page's other parameters. */
export function pager(label: string, paging: PagingDisplay, hrefOfPage: (page: number) => string): SafeHtml {
  if (paging.previous === null && paging.next === null) return html``;
  return html`<nav class="pager" aria-label="${label}">
${paging.previous === null ? '' : html`<a href="${hrefOfPage(paging.previous)}" rel="prev">Previous page</a>`}
<span>Page ${paging.page} of ${Math.max(paging.pageCount, 1)} (${paging.total} in all)</span>
${paging.next === null ? '' : html`<a href="${hrefOfPage(paging.next)}" rel="next">Next page</a>`}
</nav>`;
}

/** Home, the org's flows, environments, policies and controls, and its search box, on every page of an org. */
export function orgNav(org: string, query = ''): SafeHtml {
  return html`<header class="site"><nav class="site" aria-label="Site"><a href="/">Home</a> › <a href="${hrefOf(org, { kind: 'org' })}" class="org">${org}</a>: <a href="${hrefOf(org, { kind: 'flows' })}">Flows</a> · <a href="${hrefOf(org, { kind: 'environments' })}">Environments</a> · <a href="${hrefOf(org, { kind: 'policies' })}">Policies</a> · <a href="${hrefOf(org, { kind: 'controls' })}">Controls</a></nav>
<form class="search" role="search" method="get" action="/${seg(org)}/search"><input type="search" name="q" value="${query}" maxlength="200" aria-label="Search ${org} by fingerprint, commit, or flow, trail or artifact name" placeholder="Fingerprint, commit, name"><button type="submit">Search</button></form></header>`;
}

/** A long text cut for a list cell; the whole text is on the item's own page. */
export function brief(text: string, length = 160): string {
  const characters = [...text];
  return characters.length <= length ? text : `${characters.slice(0, length).join('')}…`;
}

/** A time as how long ago it was, the exact time on hover (and for machines in `datetime`); `otherwise` when there is none. */
export function when(iso: string | null, otherwise = ''): SafeHtml {
  if (iso === null) return html`${otherwise}`;
  return html`<time datetime="${iso}" title="${exactTime(iso)}">${relativeTime(iso, Date.now())}</time>`;
}

/** Markup made by our own pure renderers outside this template (the chart's SVG), passed through as is. */
export function generatedMarkup(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
