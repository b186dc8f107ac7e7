// The interactive API reference at /api/v2/doc/, looked at in headless Chromium: it renders every
// route of our OpenAPI document from the server's own files (no request leaves the server), and
// "Try it out" with a key entered under Authorize answers from this server. A screenshot of the
// first screen lands in test-output/api-reference/ for a person to look at. The page runs under
// its Content-Security-Policy without a violation, and keeps no key across a reload (issue 23).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { Flow, OpenApiDocument } from './answers.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { createFlow } from './fixtures.ts';
import { startServer, type TestServer } from './harness.ts';

const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-output', 'api-reference');

describe('API reference at /api/v2/doc/', function () {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  /** Every URL the page asked for. */
  const requested: string[] = [];
  /** What the page's policy refused, as the browser reports it (events and console). */
  const violations: string[] = [];

  before(async function () {
    // Debian's chromium is installed by .ci/run; elsewhere, as the jq comparison does, skip.
    if (!hasChromium()) this.skip();
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'shop');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    // Runs in the page (a string: this file is compiled without the DOM's types).
    await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) =>
      window.reportViolation(event.violatedDirective + ' refused ' + event.blockedURI + ' (' + event.sourceFile + ':' + event.lineNumber + ')'))`);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('is public HTML, like openapi.json, under a policy that loads and sends nothing but to this server', async () => {
    const reply = await server.get('/api/v2/doc/', { key: null });
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['content-type']), /^text\/html/);
    assert.match(reply.text, /<title>Compliance Evidence API reference<\/title>/);
    const policy = String(reply.headers['content-security-policy']);
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'",
    ])
      assert.ok(policy.split('; ').includes(directive), `${directive} in ${policy}`);
    assert.doesNotMatch(policy, /unsafe-|https:|\*/, 'nothing inline, evaluated, or from elsewhere');
  });

  it('renders every documented route from files the server itself serves', async () => {
    await page.goto(`${server.url}/api/v2/doc/`);
    await page
      .locator('.info .title')
      .filter({ hasText: 'Compliance Evidence Service API' })
      .waitFor({ timeout: 15_000 });
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    const document = await server.get<OpenApiDocument>('/api/v2/openapi.json', { key: null });
    const operations = Object.values(document.body.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
    assert.ok(operations > 50, `the document has the API's operations (${operations})`);
    assert.equal(await page.locator('.opblock').count(), operations, 'one block per operation of openapi.json');
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: join(outputDir, 'doc.png') });
    const elsewhere = requested.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:'));
    assert.deepEqual(elsewhere, [], 'no request leaves this server');
  });

  it('answers "Try it out" from this server once a key is entered under Authorize', async () => {
    await page.locator('button.authorize').first().click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.locator('input[aria-label="auth-bearer-value"]').fill(server.key);
    await dialog.locator('.auth-container').first().locator('button.authorize').click();
    await dialog.locator('button.btn-done').first().click();

    const operation = page
      .locator('.opblock-get')
      .filter({ has: page.locator('.opblock-summary-path[data-path="/flows/{org}"]') });
    await operation.locator('.opblock-summary').click();
    await operation.locator('tr[data-param-name="org"] input').fill('acme');
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v2/flows/acme', {
      timeout: 15_000,
    });
    await operation.locator('button.execute').click();
    const response = await answered;
    assert.equal(response.status(), 200);
    assert.equal(response.request().headers().authorization, `Bearer ${server.key}`);
    await operation
      .locator('.live-responses-table .response-col_status')
      .filter({ hasText: '200' })
      .waitFor({ timeout: 15_000 });
    assert.match(await operation.locator('.live-responses-table .microlight').first().innerText(), /"name": "shop"/);
    await page.screenshot({ path: join(outputDir, 'try-it-out.png') });
  });

  it('sends a multipart request with a file from "Try it out": a flow created from a template', async () => {
    const operation = page
      .locator('.opblock-put')
      .filter({ has: page.locator('.opblock-summary-path[data-path="/flows/{org}/template_file"]') });
    await operation.locator('.opblock-summary').click();
    await operation.locator('tr[data-param-name="org"] input').fill('acme');
    await operation
      .locator('tr[data-property-name="data_json"] input')
      .fill(JSON.stringify({ name: 'from-reference', description: 'made in the API reference' }));
    await operation.locator('tr[data-property-name="template_file"] input[type="file"]').setInputFiles({
      name: 'flow-template.yml',
      mimeType: 'application/yaml',
      buffer: Buffer.from('version: 1\ntrail:\n  attestations:\n    - name: scan\n      type: scan\n'),
    });
    const answered = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/v2/flows/acme/template_file',
      { timeout: 15_000 },
    );
    await operation.locator('button.execute').click();
    const response = await answered;
    assert.equal(response.status(), 201, await response.text());
    const flow = await server.get<Flow>('/api/v2/flows/acme/from-reference');
    assert.equal(flow.status, 200);
    assert.equal(flow.body.description, 'made in the API reference');
    assert.equal(
      flow.body.template,
      'version: 1\ntrail:\n  attestations:\n    - name: scan\n      type: scan\n',
      'the uploaded file is the template',
    );
  });

  it('ran every page above without a violation of its policy', () => {
    assert.ok(requested.length > 5, 'the page loaded');
    assert.deepEqual(violations, []);
  });

  it('keeps no key across a reload: nothing in the browser’s storage, and Authorize asks again', async () => {
    // Authorized under "Try it out" above.
    await page.locator('button.authorize.locked').first().waitFor({ timeout: 15_000 });
    const stored = () =>
      page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
    assert.ok(!(await stored()).includes(server.key), 'not stored while authorized either');
    await page.reload();
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    assert.ok(!(await stored()).includes(server.key), await stored());
    assert.equal(await page.locator('button.authorize.locked').count(), 0, 'no longer authorized');
    assert.deepEqual(violations, []);
  });

  it('forgets a key an earlier version kept in the browser’s storage', async () => {
    await page.evaluate((key) => {
      localStorage.setItem('authorized', JSON.stringify({ bearer: { name: 'bearer', value: key } }));
    }, server.key);
    await page.reload();
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    assert.equal(await page.evaluate(() => localStorage.getItem('authorized')), null);
    assert.equal(await page.locator('button.authorize.locked').count(), 0);
  });
});
