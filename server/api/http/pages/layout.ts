// The frame of every page, and how a page leaves the server: with a Content-Security-Policy that
// runs no script and loads nothing from elsewhere, and the headers that keep a page from being
// sniffed, framed or leaking where it came from.
import type { FastifyReply } from 'fastify';
import { html, type SafeHtml } from '../../../../shared/html.ts';

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function page(title: string, body: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="stylesheet" href="/assets/site.css">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function sendPage(reply: FastifyReply, status: number, markup: SafeHtml): FastifyReply {
  return reply.code(status).headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(markup.text);
}

/** One small stylesheet, served by the server itself (the policy allows no inline style). */
export const STYLESHEET = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5;
  --passed: #1b5e20; --failed: #b00020; --pending: #7a4f00; --neutral: #555; }
main { max-width: 64rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
.version { margin-top: 0; }
ul.links li { margin: 0.3rem 0; }
form { display: flex; gap: 0.5rem; align-items: end; flex-wrap: wrap; margin: 1rem 0; }
label { display: flex; flex-direction: column; font-weight: 600; }
input[type=password] { min-width: 22rem; padding: 0.35rem; font: inherit; }
button { padding: 0.4rem 0.9rem; font: inherit; cursor: pointer; }
.error { color: #b00020; font-weight: 600; }
main { overflow-wrap: anywhere; }
pre { white-space: pre-wrap; margin: 0; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
caption { text-align: left; font-style: italic; }
th, td { border: 1px solid GrayText; padding: 0.2rem 0.4rem; text-align: left; vertical-align: top; }
td ul { margin: 0; padding-left: 1.1rem; }
th { white-space: nowrap; }
td:first-child { min-width: 9rem; }
nav.site { margin-bottom: 0.5rem; }
nav.pager { display: flex; gap: 1rem; margin: 0.3rem 0 1rem; }
ul.inline { list-style: none; padding: 0; display: flex; gap: 1rem; flex-wrap: wrap; }
.status { white-space: nowrap; }
.status.passed { color: var(--passed); }
.status.failed { color: var(--failed); }
.status.pending { color: var(--pending); }
.status.neutral { color: var(--neutral); }
p.verdict { border-left: 0.3rem solid var(--neutral); padding: 0.3rem 0.7rem; margin: 0.5rem 0 1rem; }
p.verdict.passed { border-color: var(--passed); }
p.verdict.failed { border-color: var(--failed); }
p.verdict.pending { border-color: var(--pending); }
figure.chart { margin: 0.5rem 0; overflow-x: auto; }
figure.chart svg { max-width: none; }
input[inputmode=numeric] { width: 7rem; padding: 0.35rem; font: inherit; }
details { margin: 0.5rem 0; }
@media (prefers-color-scheme: dark) { :root { --passed: #81c784; --failed: #ff8a80; --pending: #ffd54f; --neutral: #bdbdbd; } .error { color: #ff8a80; } }
`;
