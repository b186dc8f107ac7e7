// The trail page behind html_url, in headless Chromium against a real server: signed in with a key,
// a trail and its attestation read from the display models, hostile text planted through the API in
// every field the page shows stays text (no markup, no script, no dialog), evidence downloads, and
// a key of another org is refused. Screenshots land in test-output/web/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { seriousViolations } from './webKit.ts';
import { attest, beginTrail, createFlow, scanResults } from './fixtures.ts';
import type { Attestation, Page as ListPage } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { HOSTILE } from './hostile.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outputDir = join(root, 'test-output', 'web');
/** What the functions run in the page use of its elements (the tests' TypeScript has no DOM types). */
interface PageElement {
  getAttribute(name: string): string | null;
}

describe('trail page', function () {
  let server: TestServer;
  let configDir: string;
  let attestationId: string;

  before(async () => {
    configDir = join(tmpdir(), `cev-trailpage-${process.pid}`);
    mkdirSync(configDir, { recursive: true });
    const config = join(configDir, 'cev.yaml');
    writeFileSync(
      config,
      [
        'orgs: [{name: acme}, {name: other}]',
        'api_keys:',
        '  - {key: acme-reader-key-1, orgs: [acme], role: reader}',
        '  - {key: other-reader-key-1, orgs: [other], role: reader}',
      ].join('\n'),
    );
    server = await startServer({ args: ['--config', config] });
    await createFlow(
      server,
      'acme',
      'backend',
      [
        'version: 1',
        'trail:',
        '  attestations:',
        '    - name: scan',
        '      type: scan',
        '    - name: review',
        '      type: pull_request',
        '',
      ].join('\n'),
    );
    await beginTrail(server, 'acme', 'backend', 'release-1', {
      description: HOSTILE,
      origin_url: 'javascript:window.pwned=1',
      user_data: { note: HOSTILE },
      external_urls: { build: { href: 'https://ci.example.test/7' } },
    });
    const reply = await attest(
      server,
      'acme',
      'backend',
      'release-1',
      'scan',
      {
        attestation_name: 'scan',
        scan_results: scanResults('ERROR'),
        description: HOSTILE,
        annotations: { why: HOSTILE },
        origin_url: 'javascript:window.pwned=1',
      },
      { filename: 'report.txt', content: 'evidence body' },
    );
    assert.equal(reply.status, 201, reply.text);
    const listed = await server.get<ListPage<Attestation>>('/api/v2/attestations/acme?flow=backend');
    attestationId = listed.body.data[0].attestation_id;
  });
  after(async () => {
    await server?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('sends a signed-out visitor to sign in', async () => {
    const reply = await server.get('/acme/flows/backend/trails/release-1', { key: null });
    assert.equal(reply.status, 303);
    assert.equal(reply.headers.location, `/sign-in?next=${encodeURIComponent('/acme/flows/backend/trails/release-1')}`);
  });

  describe('in Chromium', function () {
    let browser: Browser;
    let page: Page;
    const dialogs: string[] = [];
    before(async function () {
      if (!hasChromium()) this.skip();
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      mkdirSync(outputDir, { recursive: true });
    });
    after(async () => {
      await browser?.close();
    });

    async function signIn(key: string): Promise<void> {
      await page.goto(`${server.url}/sign-in`);
      await page.getByLabel('API key').fill(key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Your organizations' }).waitFor({ timeout: 15_000 });
    }

    it('shows the trail slots and the attestation, every hostile field as text, and downloads evidence', async () => {
      await signIn('acme-reader-key-1');
      await page.goto(`${server.url}/acme/flows/backend/trails/release-1`);
      await page.getByRole('heading', { name: 'Trail release-1' }).waitFor({ timeout: 15_000 });
      const slots = await page.locator('table').first().locator('tbody tr').allInnerTexts();
      assert.match(
        slots.find((row) => row.includes('review'))!,
        /MISSING/,
      );
      assert.match(
        slots.find((row) => row.includes('scan'))!,
        /NON-COMPLIANT/,
      );
      await page.screenshot({ path: join(outputDir, 'trail.png'), fullPage: true });

      await page
        .getByRole('table', { name: /Attestations the template asks for/ })
        .getByRole('link', { name: 'scan', exact: true })
        .click();
      await page.getByRole('heading', { name: 'Attestation scan' }).waitFor({ timeout: 15_000 });
      assert.ok(page.url().includes(`attestation_id=${attestationId}`));
      const conditions = await page
        .getByRole('table', { name: 'Quality gate conditions' })
        .locator('tbody tr')
        .allInnerTexts();
      assert.match(conditions[0], /coverage/);
      await page.screenshot({ path: join(outputDir, 'attestation.png'), fullPage: true });

      const main = await page.locator('main').innerText();
      for (const text of [
        '<script>window.pwned=1</script>',
        '<img src=x onerror="window.pwned=1">',
        '=HYPERLINK',
        '[click](javascript:window.pwned=1)',
        '\u202Egnp.exe',
      ]) {
        assert.ok(main.includes(text), `shown as text: ${text}`);
      }
      assert.equal(await page.locator('main script, main img, main svg, main [onerror], main [onload]').count(), 0);
      for (const href of await page
        .locator('a')
        .evaluateAll<string[], undefined, PageElement>((links) => links.map((a) => a.getAttribute('href') ?? ''))) {
        assert.match(href, /^(\/|https?:)/, href);
      }
      assert.equal(await page.evaluate(() => (globalThis as unknown as { pwned?: unknown }).pwned), undefined);
      assert.deepEqual(dialogs, []);

      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 15_000 }),
        page.getByRole('link', { name: 'report.txt' }).click(),
      ]);
      const saved = join(configDir, 'download');
      await download.saveAs(saved);
      assert.equal(readFileSync(saved, 'utf8'), 'evidence body');
    });

    it('has no serious or critical accessibility violations (axe-core)', async () => {
      const paths = ['/', `/acme/flows/backend/trails/release-1?attestation_id=${attestationId}`];
      assert.deepEqual(await seriousViolations(browser, server, 'acme-reader-key-1', paths), []);
    });

    it('refuses the trail to a key of another org', async () => {
      await signIn('other-reader-key-1');
      const response = await page.goto(`${server.url}/acme/flows/backend/trails/release-1`);
      assert.ok(response !== null && [403, 404].includes(response.status()), String(response?.status()));
      assert.doesNotMatch(await page.locator('main').innerText(), /release-1|NON-COMPLIANT/);
      await page.screenshot({ path: join(outputDir, 'other-org-refused.png') });
    });
  });
});
