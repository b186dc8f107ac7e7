// The one script of the detail webviews (dist/media/details.js, loaded with the page's nonce): a
// pressed button posts the message written on it, and nothing else happens here. The extension
// validates every message before it acts (client/details/messages.ts). Typed without the DOM
// library, which the rest of the project must not see.

interface ActionElement {
  closest(selector: string): ActionElement | null;
  getAttribute(name: string): string | null;
}

interface WebviewGlobals {
  acquireVsCodeApi(): { postMessage(message: unknown): void };
  document: { addEventListener(type: 'click', listener: (event: { target: unknown }) => void): void };
}

const webview = globalThis as unknown as WebviewGlobals;
const host = webview.acquireVsCodeApi();

// A keyboard press of a focused button (Enter, Space) arrives here as a click too.
webview.document.addEventListener('click', (event) => {
  const target = event.target as Partial<ActionElement> | null;
  const button = typeof target?.closest === 'function' ? target.closest('button[data-message]') : null;
  const message = button?.getAttribute('data-message');
  if (!message) return;
  try {
    host.postMessage(JSON.parse(message));
  } catch {
    // Only the extension writes data-message; a value that is not JSON is simply not sent.
  }
});
