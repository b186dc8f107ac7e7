// `/`, the page a newcomer opens first, in headless Chromium: it names the server and its version,
// signs in with a key into an HttpOnly session (the key never in a URL), lists the key's orgs, and
// links to the API reference and the OpenAPI document. Screenshots land in test-output/landing/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { startServer, type TestServer } from './harness.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outputDir = join(root, 'test-output', 'landing');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

describe('landing page /', function () {
  let server: TestServer;
  let configDir: string;

  before(async () => {
    configDir = join(tmpdir(), `cev-landing-${process.pid}`);
    mkdirSync(configDir, { recursive: true });
    const config = join(configDir, 'cev.yaml');
    writeFileSync(
      config,
      [
        'orgs: [{name: acme}, {name: other}]',
        'api_keys:',
        '  - {key: acme-reader-key-1, orgs: [acme], role: reader}',
      ].join('\n'),
    );
    server = await startServer({ args: ['--config', config] });
  });
  after(async () => {
    await server?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('is public HTML with a strict policy, naming the server, its version and where to go', async () => {
    const reply = await server.get('/', { key: null });
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['content-type']), /^text\/html/);
    assert.match(
      String(reply.headers['content-security-policy']),
      /default-src 'none'.*frame-ancestors 'none'; base-uri 'none'; object-src 'none'/,
    );
    assert.equal(reply.headers['x-content-type-options'], 'nosniff');
    assert.equal(reply.headers['referrer-policy'], 'no-referrer');
    assert.match(reply.text, new RegExp(`version ${version.replace(/\./g, '\\.')}`));
    for (const href of ['/api/v2/doc/', '/api/v2/openapi.json']) assert.match(reply.text, new RegExp(`href="${href}"`));
    assert.match(reply.text, /Quickstart/);
    assert.doesNotMatch(reply.text, /<script/);
  });

  it('refuses a wrong key with 401 and sets no session', async () => {
    const reply = await server.raw('POST', '/sign-in', 'key=not-a-key-at-all', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(reply.status, 401);
    assert.equal(reply.headers['set-cookie'], undefined);
    assert.match(reply.text, /not valid here/);
  });

  describe('in Chromium', function () {
    let browser: Browser;
    let page: Page;
    before(async function () {
      if (!hasChromium()) this.skip();
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    });
    after(async () => {
      await browser?.close();
    });

    it('signs in with the key, lists only its orgs, keeps the key out of every URL, and signs out', async () => {
      mkdirSync(outputDir, { recursive: true });
      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { name: 'Compliance Evidence' }).waitFor({ timeout: 15_000 });
      await page.screenshot({ path: join(outputDir, 'signed-out.png') });
      await page.getByLabel('API key').fill('acme-reader-key-1');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Your organizations' }).waitFor({ timeout: 15_000 });
      assert.deepEqual(await page.locator('main ul').first().locator('li').allTextContents(), [
        'acme: flows, environments',
      ]);
      assert.doesNotMatch(page.url(), /acme-reader-key-1/);
      const cookies = await page.context().cookies();
      const session = cookies.find((cookie) => cookie.name === 'cev_session');
      assert.ok(session, 'a session cookie');
      assert.equal(session.httpOnly, true);
      assert.equal(session.sameSite, 'Strict');
      assert.doesNotMatch(session.value, /acme-reader-key-1/);
      await page.screenshot({ path: join(outputDir, 'signed-in.png') });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 15_000 });
    });
  });
});
