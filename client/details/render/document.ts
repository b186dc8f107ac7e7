// The whole document of a detail webview. Its Content-Security-Policy loads nothing but the
// extension's own stylesheet and the one script carrying this load's nonce (none at all when the
// view has nothing to press): no inline script or style, no other origin, no form, no plugin.
import { html, type SafeHtml } from '../../../shared/html.ts';

export interface DocumentSources {
  /** `webview.cspSource`: the origin the webview serves the extension's media from. */
  cspSource: string;
  /** A fresh random value for each load. */
  nonce: string;
  styleUri: string;
  scriptUri: string;
}

export function contentSecurityPolicy(sources: Pick<DocumentSources, 'cspSource' | 'nonce'>, script: boolean): string {
  return [
    "default-src 'none'",
    `style-src ${sources.cspSource}`,
    `img-src ${sources.cspSource}`,
    `font-src ${sources.cspSource}`,
    `script-src ${script ? `'nonce-${sources.nonce}'` : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** `kind` is written on the body so that tests (and styles) can tell the views apart. */
export function detailDocument(kind: string, title: string, body: SafeHtml, sources: DocumentSources): string {
  // A view with no action (no data-message) needs no script, so it gets none.
  const script = body.text.includes(' data-message="');
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(sources, script)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${sources.styleUri}">
</head>
<body data-kind="${kind}">
<main>
${body}
</main>
${script ? html`<script nonce="${sources.nonce}" src="${sources.scriptUri}"></script>` : ''}
</body>
</html>
`.text;
}
