// The pieces every detail view is made of, all written with the one escaping template
// (shared/html.ts): links and actions are buttons carrying the message they post (the webview's
// only script posts it; the extension validates it), long lists page, statuses carry a word and not
// only a colour. There are no anchors: the webview host would open an anchor's href itself, and
// every opening must go through the extension's checks.
import { html, type HtmlValue, type SafeHtml } from '../../../shared/html.ts';
import type { Verdict } from '../../../shared/compliance/vocabulary.ts';
import type { ViewRef, ViewUrl } from '../../../shared/display/links.ts';
import { messageFrom, type DetailMessage, type DetailTarget } from '../messages.ts';

/** Rows per page of any list in a view. */
export const PAGE_SIZE = 25;

/** Which page each list of a view shows (1 when absent). */
export type Pages = Readonly<Record<string, number>>;

/** A rendered view: its title (the panel's), body markup, and whether it needs the script. */
export interface DetailPage {
  title: string;
  body: SafeHtml;
  /** The lists that page, with their page counts: a page request for any other is refused. */
  lists: Record<string, number>;
}

/**
 * A button that posts `message` when pressed (click, Enter or Space); just the label when the
 * extension would refuse the message (e.g. a name too long to be one), so no button does nothing.
 */
export function action(label: HtmlValue, message: DetailMessage, kind: 'link' | 'button' = 'link'): SafeHtml {
  if (messageFrom(message) === undefined) return html`${label}`;
  return html`<button type="button" class="${kind}" data-message="${JSON.stringify(message)}">${label}</button>`;
}

/** A link to another view. */
export function open(label: HtmlValue, target: DetailTarget): SafeHtml {
  return action(label, { type: 'open', target });
}

/** A view reference of the shared display models as a link, or its label as text when it leads nowhere we show. */
export function refLink(ref: ViewRef | null, label: HtmlValue): SafeHtml {
  switch (ref?.kind) {
    case 'trail':
      return open(label, { kind: 'trail', flow: ref.flow, trail: ref.trail });
    case 'attestation':
      return open(label, { kind: 'attestation', flow: ref.flow, trail: ref.trail, attestationId: ref.attestationId });
    case 'artifact':
      return open(
        label,
        ref.trail === undefined
          ? { kind: 'artifact', flow: ref.flow, fingerprint: ref.fingerprint }
          : { kind: 'artifact', flow: ref.flow, fingerprint: ref.fingerprint, trail: ref.trail },
      );
    case 'evidence':
      return action(label, {
        type: 'evidence',
        action: 'open',
        flow: ref.flow,
        trail: ref.trail,
        attestationId: ref.attestationId,
      });
    case 'external':
      return action(label, { type: 'external', url: ref.url });
    case 'environment':
      return open(label, { kind: 'environment', environment: ref.environment });
    case 'snapshot':
      return ref.index >= 1
        ? open(label, { kind: 'snapshot', environment: ref.environment, index: ref.index })
        : html`${label}`;
    case 'comparison':
      // The views compare two snapshots of one environment; across environments it stays text.
      return ref.from.environment === ref.to.environment
        ? open(label, { kind: 'compare', environment: ref.from.environment, from: ref.from.index, to: ref.to.index })
        : html`${label}`;
    default:
      return html`${label}`;
  }
}

/** A user-supplied URL: always its text, a link only when the display model admitted it (http(s)). */
export function urlItem(url: ViewUrl): SafeHtml {
  return html`<li>${url.label}: ${refLink(url.ref, url.url)}</li>`;
}

/** A state's word (shared/compliance/vocabulary.ts), coloured by the theme colour of its token (details.css), its reason on hover. */
export function status(verdict: Verdict): SafeHtml {
  return html`<strong class="status ${verdict.colour}" title="${verdict.reason}">${verdict.state}</strong>`;
}

/** The verdict of the view's subject and its reason, at the top of the view. */
export function verdictLine(verdict: Verdict): SafeHtml {
  return html`<p class="verdict ${verdict.colour}">${status(verdict)} ${verdict.reason}</p>`;
}

export function table(caption: string, columns: readonly string[], rows: readonly (readonly HtmlValue[])[]): SafeHtml {
  if (rows.length === 0) return html`<p class="empty">${caption}: none.</p>`;
  return html`<table><caption>${caption}</caption><thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
<tbody>${rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody></table>`;
}

/**
 * The page of `rows` that list `name` shows, as a table with Previous/Next under it; records the
 * list's page count in `lists` so the panel accepts page requests for it and no other.
 */
export function pagedTable(
  name: string,
  caption: string,
  columns: readonly string[],
  rows: readonly (readonly HtmlValue[])[],
  pages: Pages,
  lists: Record<string, number>,
): SafeHtml {
  const pageCount = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  lists[name] = pageCount;
  const page = Math.min(Math.max(1, pages[name] ?? 1), pageCount);
  const first = (page - 1) * PAGE_SIZE;
  const shown = rows.slice(first, first + PAGE_SIZE);
  if (pageCount === 1) return table(caption, columns, shown);
  return html`${table(caption, columns, shown)}
<nav class="pager" aria-label="${caption}: pages">
${page > 1 ? action('Previous page', { type: 'page', list: name, page: page - 1 }, 'button') : ''}
<span>Rows ${first + 1}–${first + shown.length} of ${rows.length} (page ${page} of ${pageCount})</span>
${page < pageCount ? action('Next page', { type: 'page', list: name, page: page + 1 }, 'button') : ''}
</nav>`;
}

/** Pretty-printed JSON from a reporter: text in a <pre>, never markup. */
export function jsonBlock(heading: string, text: string | null): SafeHtml {
  return text === null ? html`` : html`<h2>${heading}</h2><pre class="json">${text}</pre>`;
}

/** A definition list of the fields that have a value. */
export function facts(entries: readonly [string, HtmlValue][]): SafeHtml {
  const shown = entries.filter(([, value]) => value !== '' && value !== null && value !== undefined);
  return html`<dl class="facts">${shown.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`;
}
