// The workbench page, reached through the code-server runner (runner/driver.mjs): the tests write a
// request file into E2E_DRIVER_DIR and wait (bounded) for the answer. Under @vscode/test-electron
// there is no page to drive, and tests that need it skip.
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from '../../../support/wait.ts';

export interface ShownElement {
  text: string;
  /** The label of a list row (its `.label-name`), without the description. */
  label: string | null;
  ariaLabel: string | null;
  /** `true`/`false` on rows that expand, null elsewhere. */
  expanded: string | null;
  /** `true` on the selected row of a list. */
  selected: string | null;
  /** The class names of the codicons inside, e.g. `codicon codicon-pass-filled`. */
  icons: string[];
}

/** What a detail webview shows (runner/driver.mjs webviewQuery). */
export interface WebviewShown {
  /** The text of its <main>. */
  text: string;
  /** `window.pwned` in the webview: set only if planted markup ever ran. */
  probe: unknown;
  /** The src of every script element. */
  scripts: string[];
  elements: { text: string; tag: string; message: string | null }[];
}

let nextId = 1;

export function hasPage(): boolean {
  return Boolean(process.env.E2E_DRIVER_DIR);
}

async function ask<T>(action: string, args: object, timeoutMs = 30_000): Promise<T> {
  const dir = process.env.E2E_DRIVER_DIR;
  if (!dir) throw new Error('no page driver: run under npm run test:e2e');
  const id = nextId++;
  const request = path.join(dir, `request-${id}.json`);
  await writeFile(`${request}.tmp`, JSON.stringify({ id, action, ...args }));
  await rename(`${request}.tmp`, request);
  const responseFile = path.join(dir, `response-${id}.json`);
  await waitFor(() => existsSync(responseFile), `the runner to do '${action}'`, timeoutMs);
  const response = JSON.parse(await readFile(responseFile, 'utf8')) as { ok: boolean; error?: string } & T;
  await rm(responseFile, { force: true });
  if (!response.ok) throw new Error(`the runner could not do '${action}': ${response.error}`);
  return response;
}

export const page = {
  /** Saves the page as `<output>/<name>.png`, without the notifications of earlier steps; returns the file. */
  async screenshot(name: string): Promise<string> {
    await vscode.commands.executeCommand('notifications.clearAll');
    return (await ask<{ file: string }>('screenshot', { name })).file;
  },
  /** Types into the open input box or quick pick and presses Enter. */
  async fillQuickInput(text: string): Promise<void> {
    await ask('fillQuickInput', { text });
  },
  /** Clicks the first match of `selector` that contains `text`, or whose row label is `label`. */
  async click(selector: string, narrow: { text?: string; label?: string } = {}): Promise<void> {
    await ask('click', { selector, ...narrow });
  },
  async press(key: string): Promise<void> {
    await ask('press', { key });
  },
  async query(selector: string): Promise<ShownElement[]> {
    return (await ask<{ elements: ShownElement[] }>('query', { selector })).elements;
  },
  /** The detail webview showing a view of `kind`, once there is one. */
  async webview(kind: string, selector = 'button'): Promise<WebviewShown> {
    return ask<WebviewShown>('webviewQuery', { kind, selector });
  },
  async webviewClick(kind: string, selector: string, text?: string): Promise<void> {
    await ask('webviewClick', { kind, selector, text });
  },
  /** Scrolls the webview to the element, e.g. before a screenshot of a lower section. */
  async webviewReveal(kind: string, selector: string, text?: string): Promise<void> {
    await ask('webviewReveal', { kind, selector, text });
  },
  /** Focuses the element inside the webview and presses `key` there, as a keyboard user does. */
  async webviewPress(kind: string, selector: string, text: string | undefined, key: string): Promise<void> {
    await ask('webviewPress', { kind, selector, text, key });
  },
  /** Messages of every dialog any frame opened so far. */
  async dialogs(): Promise<string[]> {
    return (await ask<{ dialogs: string[] }>('dialogs', {})).dialogs;
  },
};
