// The server's own pages outside the API: `/` names the server, its version and the orgs the
// signed-in key may see, and links to the API reference, the OpenAPI document and the quickstart;
// `/sign-in` and `/sign-out` keep a browser session (sessions.ts), and take their forms only from
// this server's own pages (sameOrigin.ts). All are public: what a page shows depends on the
// session, checked with the same keyring as the API.
import type { FastifyPluginCallback } from 'fastify';
import packageJson from '../../../../package.json' with { type: 'json' };
import type { Principal } from '../../principal.ts';
import type { RouteOptions } from '../context.ts';
import { html, type SafeHtml } from '../../../../shared/html.ts';
import { FAVICON } from './favicon.ts';
import { page, sendPage } from './layout.ts';
import { STYLESHEET } from './stylesheet.ts';
import { foreignSourceOf } from './sameOrigin.ts';
import { returnPathOf } from './returnPath.ts';
import { Sessions } from './sessions.ts';
import { registerEnvironmentPages } from './environmentPages.ts';
import { registerFlowPages } from './flowPages.ts';
import { hrefOf } from './markup.ts';
import { registerGovernancePages } from './governancePages.ts';
import { registerOrgHomePage } from './orgHomePage.ts';
import { registerSearchPages } from './searchPages.ts';
import { registerSnapshotPages } from './snapshotPages.ts';
import { registerTrailPages } from './trailPages.ts';

const TITLE = 'Compliance Evidence — local API server';

/** `next`: the page to return to once signed in (returnPath.ts), carried by the form. */
function signInForm(problem?: string, next = '/'): SafeHtml {
  return html`<h2>Sign in</h2>
${problem === undefined ? '' : html`<p class="error" role="alert">${problem}</p>`}
${next === '/' ? '' : html`<p>Then you go on to <code>${next}</code>.</p>`}
<form method="post" action="/sign-in">
${next === '/' ? '' : html`<input type="hidden" name="next" value="${next}">`}
<label for="key">API key<input id="key" name="key" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>`;
}

export const landingRoutes: FastifyPluginCallback<RouteOptions> = (app, { context, services }, done) => {
  const sessions = new Sessions();
  const site = { sessions, services };
  registerTrailPages(app, site);
  registerFlowPages(app, site);
  registerEnvironmentPages(app, site);
  registerSnapshotPages(app, site);
  registerSearchPages(app, site);
  registerGovernancePages(app, site);
  registerOrgHomePage(app, site);
  const publicRoute = { config: { public: true }, schema: { hide: true } };
  // Every page route of this plugin that changes state, before its body is read.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const source = foreignSourceOf(request, context.publicUrl());
    if (source === undefined) return;
    return sendPage(
      reply,
      403,
      page(
        `Refused — ${TITLE}`,
        html`<h1>Compliance Evidence</h1>
<p class="error" role="alert">This form was sent from ${source}, not from this server's own page, so nothing was done.</p>
<p><a href="/sign-in">Sign in on this server's page</a> instead.</p>`,
      ),
    );
  });
  // Only the sign-in form posts here; its one field arrives form-encoded.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  const landing = async (principal: Principal | undefined, problem?: string, next?: string): Promise<SafeHtml> => {
    const who =
      principal === undefined
        ? signInForm(problem, next)
        : html`<h2>Your organizations</h2>
<ul>${(await services.access.orgNamesOf(principal)).map((org) => html`<li><a href="${hrefOf(org, { kind: 'org' })}">${org}</a>: <a href="${hrefOf(org, { kind: 'flows' })}">flows</a>, <a href="${hrefOf(org, { kind: 'environments' })}">environments</a></li>`)}</ul>
<form method="post" action="/sign-out"><button type="submit">Sign out</button></form>`;
    return page(
      TITLE,
      html`<h1>Compliance Evidence</h1>
<p class="version">Local API server, version ${packageJson.version}. The Compliance Evidence Service API v2 lives under <code>/api/v2</code>.</p>
${who}
<h2>Where to go</h2>
<ul class="links">
<li><a href="/api/v2/doc/">Interactive API reference</a>: authorize with your key, then "Try it out".</li>
<li><a href="/api/v2/openapi.json">OpenAPI document</a> (<code>openapi.json</code>)</li>
<li>The quickstart: the README's "Quickstart" section has copy-paste <code>curl</code> requests from a flow template to the audit log.</li>
<li>In VS Code: set <code>complianceEvidence.customUrl</code> to this server's address, then run "Compliance Evidence: Sign In".</li>
</ul>`,
    );
  };

  app.get('/', publicRoute, async (request, reply) => {
    const key = sessions.keyOf(request);
    const principal = key === undefined ? undefined : await services.access.principalOf(key);
    return sendPage(reply, 200, await landing(principal));
  });

  app.get<{ Querystring: { next?: unknown } }>('/sign-in', publicRoute, async (request, reply) =>
    sendPage(
      reply,
      200,
      page(
        `Sign in — ${TITLE}`,
        html`<h1>Compliance Evidence</h1>${signInForm(undefined, returnPathOf(request.query.next))}`,
      ),
    ),
  );

  app.post<{ Body: { key?: unknown; next?: unknown } }>('/sign-in', publicRoute, async (request, reply) => {
    const key = typeof request.body?.key === 'string' ? request.body.key.trim() : '';
    const next = returnPathOf(request.body?.next);
    const principal = key === '' ? undefined : await services.access.principalOf(key);
    if (principal === undefined)
      return sendPage(
        reply,
        401,
        await landing(undefined, key === '' ? 'Enter an API key.' : 'That API key is not valid here.', next),
      );
    if (!sessions.start(reply, key))
      return sendPage(
        reply.header('retry-after', '60'),
        503,
        await landing(
          undefined,
          'Too many browser sessions are open on this server; try again in a few minutes.',
          next,
        ),
      );
    return reply.code(303).header('location', next).send();
  });

  app.post('/sign-out', publicRoute, async (request, reply) => {
    sessions.end(request, reply);
    return reply.code(303).header('location', '/').send();
  });

  app.get('/assets/site.css', publicRoute, async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'max-age=3600')
      .send(STYLESHEET),
  );

  app.get('/favicon.ico', publicRoute, async (_request, reply) =>
    reply
      .type('image/x-icon')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'max-age=86400')
      .send(FAVICON),
  );
  done();
};
