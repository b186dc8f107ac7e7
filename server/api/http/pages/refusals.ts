// What a page says when it cannot show what was asked. Not found is one page whatever the cause (no
// such name, another org's, a number out of range), so it tells nothing about what exists for
// another key, and it says so as a missing thing, not a permission. It keeps the way on: the org's
// navigation, where to look instead and, for a snapshot number out of range, the range there is
// (said only once the environment itself could be read with the key).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../../../../shared/html.ts';
import { NAME_PATTERN } from '../../../../shared/names.ts';
import { page, sendPage } from './layout.ts';
import { hrefOf, orgNav } from './markup.ts';

export class PageRefused extends Error {
  readonly status: number;
  /** What helps further: the range there is, where else to look. */
  readonly help: SafeHtml;
  constructor(status: number, message: string, help: SafeHtml = html``) {
    super(message);
    this.status = status;
    this.help = help;
  }
}

/** Not found: `what` ("trail", "snapshot #9") is named, never whose or why. */
export function notFound(what: string, help?: SafeHtml): PageRefused {
  return new PageRefused(404, `No ${what} was found at this address.`, help);
}

/** The page of a refusal, inside `org`'s navigation when the address names one. */
export function refusalPage(org: string | undefined, refusal: PageRefused): SafeHtml {
  const title = refusal.status === 404 ? 'Not found' : 'Not shown';
  const onward =
    org === undefined
      ? html`<p>Start again from <a href="/">the home page</a>.</p>`
      : html`<p>Check the address, or find it from the <a href="${hrefOf(org, { kind: 'flows' })}">flows</a> or the <a href="${hrefOf(org, { kind: 'environments' })}">environments</a> of ${org}.</p>`;
  return page(
    `${title} — Compliance Evidence`,
    html`${org === undefined ? html`<nav class="site" aria-label="Site"><a href="/">Home</a></nav>` : orgNav(org)}
<h1>${title}</h1>
<p class="error" role="alert">${refusal.message}</p>
${refusal.help}
${onward}`,
  );
}

const ORG_NAME = new RegExp(NAME_PATTERN);

/**
 * A browser's request for an address no page or operation answers (outside /api/): the not found
 * page, inside the navigation of the org its first segment would be, when that can be an org name;
 * undefined for any other request, which gets the API's own answer.
 */
export function addressNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  const path = request.url.split('?')[0];
  const accepted = String(request.headers.accept ?? '');
  if (request.method !== 'GET' || path.startsWith('/api/') || !accepted.includes('text/html')) return undefined;
  let first = '';
  try {
    first = decodeURIComponent(path.split('/')[1] ?? '');
  } catch {
    // The router refuses an undecodable address before this; should one get here, it is no org's name.
  }
  return sendPage(reply, 404, refusalPage(ORG_NAME.test(first) ? first : undefined, notFound('page')));
}
