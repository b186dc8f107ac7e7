// "Start Local Server" from the palette: the bundled API server runs on a loopback port, the status
// bar shows it, and its menu hands out the admin key (through the clipboard, as a user gets it).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi } from './support/extension.ts';
import { record } from './support/figures.ts';
import { localApi } from './support/localApi.ts';
import { hasPage, page } from './support/page.ts';
import { waitFor } from '../../support/wait.ts';

describe('local server', () => {
  let url: string;

  it('starts from the command on a loopback port and answers /ready', async () => {
    const api = await extensionApi();
    const startedAt = performance.now();
    const started = await vscode.commands.executeCommand<string | undefined>('complianceEvidence.localServer.start');
    record(
      '"Start Local Server" → server ready (first start, empty data)',
      `${Math.round(performance.now() - startedAt)} ms`,
    );
    assert.ok(started, `the start command returned a URL (local server: ${JSON.stringify(api.localServer())})`);
    url = started;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(api.localServer().state, 'running');
    const ready = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(5000) });
    assert.equal(ready.status, 200);
    const connection = await waitFor(
      () => (api.connection().kind === 'local' ? api.connection() : undefined),
      'the views to switch to the local server',
    );
    assert.equal(connection.kind === 'local' && connection.apiBase, `${url}/api/v2`);
    if (hasPage()) {
      await waitFor(async () => {
        const welcomes = (await page.query('#workbench\\.parts\\.sidebar .welcome-view-content')).map(
          (view) => view.text,
        );
        return (
          welcomes.some((text) => text.includes('No flows yet')) &&
          welcomes.some((text) => text.includes('No environments yet'))
        );
      }, 'both views to say they are empty');
      record(
        '"Start Local Server" → both views loaded (first start, empty data)',
        `${Math.round(performance.now() - startedAt)} ms`,
      );
    }
  });

  it('shows its port in the status bar', async function () {
    if (!hasPage()) this.skip();
    const port = new URL(url).port;
    const item = await waitFor(
      async () =>
        (await page.query('#workbench\\.parts\\.statusbar .statusbar-item')).find((element) =>
          element.text.includes(`Local server :${port}`),
        ),
      `a status bar item for port ${port}`,
    );
    assert.ok(
      item.icons.some((icon) => icon.includes('codicon-server')),
      `server icon in ${JSON.stringify(item.icons)}`,
    );
  });

  it('copies the admin key from its status bar menu, and the key opens the API', async function () {
    if (!hasPage()) this.skip();
    const { base, org, key } = await localApi();
    const withKey = await fetch(`${base}/service-accounts/${org}`, { headers: { authorization: `Bearer ${key}` } });
    const withoutKey = await fetch(`${base}/service-accounts/${org}`);
    await Promise.all([withKey.arrayBuffer(), withoutKey.arrayBuffer()]);
    assert.equal(withKey.status, 200, 'the copied key is accepted');
    assert.equal(withoutKey.status, 401, 'no key is refused');
  });
});
