// The trail page of a small org (webStory.ts) in headless Chromium against a real server: what
// happened to the trail, in words, with links to what it happened to. Screenshots land in
// test-output/web-pages/.
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { startServer, type TestServer } from './harness.ts';
import { DESKTOP, screenshots, signIn } from './webKit.ts';
import { plantStory, READER, STORY_CONFIG } from './webStory.ts';

const RELEASE_42 = '/acme/flows/backend/trails/release-42';

describe('the trail page', function () {
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

  it('tells its events in words, each linked to what it happened to, with no JSON', async () => {
    await page.goto(`${server.url}${RELEASE_42}`);
    const events = await rows('Events of the trail');
    assert.deepEqual(
      events.map(([, title]) => title),
      [
        'Trail reported',
        'Artifact reported',
        'Attestation reported',
        'Attestation reported',
        'Attestation reported',
        'Attestation reported',
        'Started running in production',
        'Started running in staging',
      ],
    );
    assert.deepEqual(
      events.map(([, , details]) => details),
      [
        '',
        'registry.test/acme/api:42 · as api, fingerprint a1fece484e17…',
        'unit-tests · junit attestation of artifact api, non-compliant',
        'coverage · custom:coverage attestation of artifact api, non-compliant',
        'quality · scan attestation of artifact api, non-compliant',
        'change-board · system:decision attestation, non-compliant',
        'production#2 · artifact api, fingerprint a1fece484e17…',
        'staging#1 · artifact api, fingerprint a1fece484e17…',
      ],
    );
    assert.equal(await page.getByRole('table', { name: 'Events of the trail' }).locator('pre').count(), 0);
    await screenshots(page, server, RELEASE_42, 'trail-release-42');

    const table = page.getByRole('table', { name: 'Events of the trail' });
    await table.getByRole('link', { name: 'production#2' }).click();
    await page.getByRole('heading', { name: 'Snapshot production#2' }).waitFor({ timeout: 15_000 });
    await page.goBack();
    await table.getByRole('link', { name: 'unit-tests' }).click();
    await page.getByRole('heading', { name: 'Attestation unit-tests' }).waitFor({ timeout: 15_000 });
  });
});
