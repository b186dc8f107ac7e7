// The pages of an org as a whole, on a small org (webStory.ts) in headless Chromium against a real
// server: what a page says when it cannot show what was asked. Screenshots land in
// test-output/web-pages/.
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { startServer, type TestServer } from './harness.ts';
import { DESKTOP, screenshots, signIn } from './webKit.ts';
import { OTHER_READER, plantStory, READER, STORY_CONFIG } from './webStory.ts';

describe('the pages of an org', function () {
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

  it('says what was not found as a missing thing, with the way on and the range of snapshots there is', async () => {
    const refused = async (path: string, org = 'acme') => {
      const response = await page.goto(`${server.url}${path}`);
      assert.equal(response?.status(), 404, path);
      assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Not found', path);
      const main = await page.locator('main').innerText();
      assert.doesNotMatch(main, /for your key|permission|not allowed/i, path);
      // The org's navigation, and where to look instead.
      assert.equal(
        await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Flows' }).count(),
        1,
      );
      assert.ok(main.includes(`Check the address, or find it from the flows or the environments of ${org}.`), path);
      return main;
    };
    for (const index of ['99', '0', 'abc']) {
      const main = await refused(`/acme/environments/production/snapshots/${index}`);
      assert.match(
        main,
        /No snapshot was found at this address\.\n+The snapshots of production are #1 to #3; the latest is production#3\./,
      );
    }
    await screenshots(page, server, '/acme/environments/production/snapshots/99', 'not-found-snapshot');
    await page.goto(`${server.url}/acme/environments/production/snapshots/99`);
    await page.getByRole('link', { name: 'production#3' }).click();
    await page.getByRole('heading', { name: 'Snapshot production#3' }).waitFor({ timeout: 15_000 });

    for (const query of ['from=7&to=9', 'from=x&to=3'])
      assert.match(
        await refused(`/acme/environments/production/compare?${query}`),
        /No comparison of those snapshots was found at this address\.\n+The snapshots of production are #1 to #3/,
      );
    assert.match(await refused('/acme/environments/dev/snapshots/1'), /dev has no snapshots yet\./);
    assert.match(await refused('/acme/flows/nope'), /No flow was found at this address\./);
    assert.match(await refused('/acme/flows/backend/trails/nope'), /No trail was found at this address\./);
    assert.match(await refused('/nope/environments', 'nope'), /No organization was found at this address\./);
    await screenshots(page, server, '/acme/flows/backend/trails/nope', 'not-found-trail');

    // A key of another org learns nothing: the same words, no range, no name of the environment.
    const other = await browser.newPage({ viewport: DESKTOP });
    await signIn(other, server, OTHER_READER);
    const response = await other.goto(`${server.url}/acme/environments/production/snapshots/99`);
    assert.equal(response?.status(), 404);
    const main = await other.locator('main').innerText();
    assert.match(main, /No snapshot was found at this address\./);
    assert.doesNotMatch(main, /production|#3/);
    await other.close();
  });
});
