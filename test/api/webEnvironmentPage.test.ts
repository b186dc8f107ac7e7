// The environment, snapshot and comparison pages of a small org (webStory.ts) in headless Chromium
// against a real server. Screenshots land in test-output/web-pages/.
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { startServer, type TestServer } from './harness.ts';
import { DESKTOP, screenshots, signIn } from './webKit.ts';
import { API_IMAGE, FP, plantStory, READER, STORY_CONFIG } from './webStory.ts';

describe('the environment pages', function () {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async function () {
    if (!hasChromium()) this.skip();
    server = await startServer({ config: STORY_CONFIG });
    await plantStory(server);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: DESKTOP });
    await signIn(page, server, READER);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The rows of a table named by its caption, a cell's text per column. */
  async function rows(name: string | RegExp): Promise<string[][]> {
    return (await page.getByRole('table', { name }).locator('tbody tr').allInnerTexts()).map((row) =>
      row.split('\t').map((cell) => cell.trim()),
    );
  }

  it('names the artifacts a policy fails, linked to their pages, instead of bare fingerprints', async () => {
    const path = '/acme/environments/production/snapshots/2';
    await page.goto(`${server.url}${path}`);
    const applied = page.getByRole('table', { name: 'Policies applied to the snapshot' });
    assert.deepEqual(await rows('Policies applied to the snapshot'), [
      [
        'prod-rules',
        '2',
        `${API_IMAGE(42)} ${FP.api42.slice(0, 12)}…\nregistry.test/mesh/sidecar:1 ${FP.sidecar.slice(0, 12)}…`,
      ],
    ]);
    assert.doesNotMatch(await applied.innerText(), /[0-9a-f]{64}/, 'no whole fingerprint as the name');
    assert.equal(await applied.locator('code').first().getAttribute('title'), FP.api42, 'the whole one on hover');
    await screenshots(page, server, path, 'snapshot-production-2');
    await applied.getByRole('link', { name: API_IMAGE(42) }).click();
    await page.getByRole('heading', { name: `Artifact ${API_IMAGE(42)}` }).waitFor({ timeout: 15_000 });
  });
});
