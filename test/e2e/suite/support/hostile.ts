// Hostile text for the detail view tests: each part sets window.pwned, or opens a dialog, if it
// ever runs; what a view shows must contain every part as text.
import * as assert from 'node:assert/strict';
import type { WebviewShown } from './page.ts';

export const HOSTILE_PARTS = [
  '<script>window.pwned=1</script>',
  '<img src=x onerror="window.pwned=2">',
  '"><svg onload=alert(3)>',
  '[click](javascript:window.pwned=4)',
  '=HYPERLINK("https://evil.test")',
];

export const HOSTILE = HOSTILE_PARTS.join(' | ');

/** The view shows every hostile part as text, loads only the extension's script, and nothing planted ran. */
export function assertInert(shown: WebviewShown, what: string, parts: readonly string[] = HOSTILE_PARTS): void {
  for (const part of parts) assert.ok(shown.text.includes(part), `${what} shows ${part} as text`);
  assert.equal(shown.probe, null, `${what}: nothing planted ran`);
  // The webview host injects its own inline script (acquireVsCodeApi); every script with a source is ours.
  const sources = shown.scripts.filter((src) => src !== '');
  assert.ok(
    sources.length === 1 && /\/dist\/media\/details\.js$/.test(new URL(sources[0]).pathname),
    `${what}: only the extension's script: ${sources.join(', ')}`,
  );
  for (const element of shown.elements) {
    if (element.message === null) continue;
    const message = JSON.parse(element.message) as { type: string; url?: string };
    if (message.type === 'external') assert.match(message.url ?? '', /^https?:\/\//, `${what}: only http(s) links`);
  }
}
