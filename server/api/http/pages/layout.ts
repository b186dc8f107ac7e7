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
