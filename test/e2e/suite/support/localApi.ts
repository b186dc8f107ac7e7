// The local server's API as a script would use it: plain fetch with the admin key, to create what
// the views must then show. Deliberately not the extension's own API client.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi } from './extension.ts';
import { page } from './page.ts';
import { waitFor } from '../../../support/wait.ts';

export interface LocalApi {
  /** `http://127.0.0.1:<port>/api/v2` */
  base: string;
  org: string;
  key: string;
}

let cached: LocalApi | undefined;

/** The running local server, with the admin key copied from its status bar item's menu as a user copies it. */
export async function localApi(): Promise<LocalApi> {
  const status = (await extensionApi()).localServer();
  assert.equal(status.state, 'running', 'the local server runs (started by the local server tests)');
  const base = `${status.url}/api/v2`;
  if (cached?.base === base) return cached;
  await vscode.env.clipboard.writeText('');
  await page.click('#workbench\\.parts\\.statusbar .statusbar-item', { text: 'Local server' });
  await page.fillQuickInput('Copy API Key');
  const key = await waitFor(() => vscode.env.clipboard.readText(), 'the key in the clipboard');
  cached = { base, org: status.org ?? 'default', key };
  return cached;
}

/** One call; throws with the server's answer unless it is 200 or 201. */
export async function call(api: LocalApi, method: string, path: string, body?: FormData | object): Promise<unknown> {
  const headers: Record<string, string> = { authorization: `Bearer ${api.key}` };
  let payload: FormData | string | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${api.base}/${path}`, {
    method,
    headers,
    body: payload,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status !== 200 && response.status !== 201)
    throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

export function multipart(parts: Record<string, string | { name: string; text: string }>): FormData {
  const form = new FormData();
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === 'string') form.append(name, part);
    else form.append(name, new Blob([part.text]), part.name);
  }
  return form;
}
