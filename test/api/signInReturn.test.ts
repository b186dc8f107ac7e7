// A link into the web UI followed while signed out (an html_url from the API or a webhook) comes
// back to its page after sign-in, in headless Chromium: through a refused key too, and never to
// another site, whatever `next` says. Screenshots land in test-output/sign-in-return/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../support/browser.ts';
import type { Trail } from './answers.ts';
import { beginTrail, createFlow } from './fixtures.ts';
import { startServer, type TestServer } from './harness.ts';

const outputDir = join(import.meta.dirname, '..', '..', 'test-output', 'sign-in-return');

describe('sign-in returns to the page asked for', function () {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let trailUrl: string;

  before(async function () {
    if (!hasChromium()) this.skip();
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'shop', 'version: 1\n', 'The shop service');
    await beginTrail(server, 'acme', 'shop', 'build-7');
    trailUrl = (await server.get<Trail>('/api/v2/trails/acme/shop/build-7')).body.html_url;
    browser = await launchChromium();
    mkdirSync(outputDir, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await (await browser.newContext({ viewport: { width: 1000, height: 800 } })).newPage();
  });
  afterEach(async () => {
    await page?.context().close();
  });

  async function signIn(key: string): Promise<void> {
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it("an API trail's html_url, opened signed out, is the page shown once signed in, through a refused key", async () => {
    const deepLink = `${trailUrl}?attestation_id=none#events`;
    assert.match(trailUrl, new RegExp(`^${server.url}/acme/flows/shop/trails/build-7$`));
    await page.goto(deepLink);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 15_000 });
    assert.equal(
      new URL(page.url()).search,
      `?next=${encodeURIComponent('/acme/flows/shop/trails/build-7?attestation_id=none')}`,
      'the page asked for travels to the sign-in page (the fragment stays in the browser)',
    );
    await page
      .getByText('Then you go on to /acme/flows/shop/trails/build-7?attestation_id=none.')
      .waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(outputDir, 'sign-in-for-a-trail.png') });
    await signIn('not-a-key-at-all');
    await page.getByRole('alert').filter({ hasText: 'That API key is not valid here.' }).waitFor({ timeout: 15_000 });
    await signIn(server.key);
    await page.waitForURL(`${trailUrl}?attestation_id=none`, { timeout: 15_000 });
    await page
      .getByRole('heading', { name: /build-7/ })
      .first()
      .waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(outputDir, 'back-on-the-trail.png') });
  });

  it('a `next` that leads off this server lands on the home page instead', async () => {
    for (const next of ['//example.org/x', 'https://example.org/', '/\\example.org', '/sign-out']) {
      await page.goto(`${server.url}/sign-in?next=${encodeURIComponent(next)}`);
      await signIn(server.key);
      await page.getByRole('heading', { name: 'Your organizations' }).waitFor({ timeout: 15_000 });
      assert.equal(page.url(), `${server.url}/`, next);
      await page.context().clearCookies();
    }
  });

  it('the sign-in form on its own still goes home', async () => {
    await page.goto(`${server.url}/sign-in`);
    await signIn(server.key);
    await page.getByRole('heading', { name: 'Your organizations' }).waitFor({ timeout: 15_000 });
    assert.equal(page.url(), `${server.url}/`);
  });
});
