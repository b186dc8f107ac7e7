// How every page looks and behaves, whatever it shows, in headless Chromium against a real server
// holding a small org (webStory.ts): the icon, times, tables on a phone and the dark theme.
// Screenshots land in test-output/web-pages/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { exactTime } from '../../shared/display/time.ts';
import type { Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import {
  DESKTOP,
  PHONE,
  screenshots,
  seriousViolations,
  SHOTS,
  signIn,
  type PageElement,
  type PageWindow,
} from './webKit.ts';
import { FP, plantStory, READER, STORY_CONFIG } from './webStory.ts';

/** Pages of every kind, signed in as the org's reader. */
const PAGES = [
  '/acme/flows',
  '/acme/flows/backend',
  '/acme/flows/backend/trails/release-42',
  '/acme/environments',
  '/acme/environments/production',
  '/acme/environments/production/snapshots/3',
  '/acme/environments/production/compare?from=2&to=3',
  '/acme/search?q=release',
  '/acme/policies/prod-rules',
  '/acme/controls/CC8.1',
];

/** Relative luminance (WCAG) of a CSS `rgb(r, g, b)` colour. */
function luminance(colour: string): number {
  const channels = (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
  const [r, g, b] = channels.map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** A file name for a page's screenshots. */
function shotName(path: string): string {
  return path.slice(1).replace(/[/?=&]+/g, '-');
}

describe('how every page looks', function () {
  let server: TestServer;

  before(async () => {
    server = await startServer({ config: STORY_CONFIG });
    await plantStory(server);
  });
  after(async () => {
    await server?.stop();
  });

  it('answers /favicon.ico with the product mark as an icon, and every page links it', async () => {
    const icon = await fetch(`${server.url}/favicon.ico`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/x-icon');
    const bytes = Buffer.from(await icon.arrayBuffer());
    // An ICO directory of one 32 x 32, 32-bit image.
    assert.deepEqual([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)], [0, 1, 1]);
    assert.deepEqual([bytes[6], bytes[7], bytes.readUInt16LE(12)], [32, 32, 32]);
    // Its pixels, [red, green, blue, alpha] at (x, y) from the top left, stored bottom-up as BGRA.
    const at = (x: number, y: number) => {
      const offset = bytes.readUInt32LE(18) + 40 + ((31 - y) * 32 + x) * 4;
      return [bytes[offset + 2], bytes[offset + 1], bytes[offset], bytes[offset + 3]];
    };
    assert.deepEqual(at(0, 0), [0, 0, 0, 0], 'a clear corner');
    assert.deepEqual(at(4, 16), [0x1b, 0x5e, 0x20, 255], 'the green of COMPLIANT');
    assert.deepEqual(at(13, 21), [255, 255, 255, 255], 'the check');
    const signedIn = await server.raw('POST', '/sign-in', `key=${READER}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0];
    for (const path of ['/', '/sign-in', ...PAGES, '/acme/flows/nope']) {
      const shown = await server.raw('GET', path, undefined, { cookie });
      assert.match(shown.text, /<link rel="icon" href="\/favicon\.ico"/, path);
    }
  });

  describe('in Chromium', function () {
    let browser: Browser;
    let page: Page;

    before(async function () {
      if (!hasChromium()) this.skip();
      browser = await launchChromium();
      page = await browser.newPage({ viewport: DESKTOP });
      await signIn(page, server, READER);
    });
    after(async () => {
      await browser?.close();
    });

    it('shows each time as how long ago it was, with the exact time on hover', async () => {
      const trail = (await server.get<Trail>('/api/v2/trails/acme/backend/release-42')).body;
      await page.goto(`${server.url}/acme/flows/backend/trails/release-42`);
      const created = page.locator('p', { hasText: 'created' }).locator('time');
      assert.equal(await created.getAttribute('datetime'), new Date(trail.created_at * 1000).toISOString());
      assert.equal(await created.getAttribute('title'), exactTime(new Date(trail.created_at * 1000).toISOString()));
      assert.match(await created.innerText(), /^(just now|\d+ (second|minute)s? ago)$/);
      for (const path of PAGES) {
        await page.goto(`${server.url}${path}`);
        const times = await page.locator('main time').all();
        // Every page but the comparison, which names two snapshots, shows a time.
        assert.ok(times.length > 0 || path.includes('/compare'), `${path} shows times`);
        for (const time of times) {
          const iso = (await time.getAttribute('datetime'))!;
          assert.equal(await time.getAttribute('title'), exactTime(iso), path);
          assert.match(await time.innerText(), /^(just now|\d+ (second|minute)s? ago)$/, path);
        }
        // No raw ISO time is left in the text of a page.
        assert.doesNotMatch(await page.locator('main').innerText(), /\d{4}-\d\d-\d\dT\d\d:/, path);
      }
    });

    it('shows no heading with nothing under it: a section with nothing to show is left out', async () => {
      const headings = async (path: string) => {
        await page.goto(`${server.url}${path}`);
        return await page.getByRole('heading', { level: 2 }).allInnerTexts();
      };
      // A trail reported without a commit or links has no Source; one with a commit has.
      assert.deepEqual(await headings('/acme/flows/frontend/trails/main-7'), ['Template slots', 'Artifacts', 'Events']);
      assert.ok((await headings('/acme/flows/backend/trails/release-42')).includes('Source'));
      // The first snapshot, with nothing before it, has nothing that stopped running; the third has.
      assert.ok(!(await headings('/acme/environments/production/snapshots/1')).includes('Stopped running'));
      assert.ok((await headings('/acme/environments/production/snapshots/3')).includes('Stopped running'));
      // Nothing started between #2 and #3: the comparison says 0 started and shows no Started section.
      assert.deepEqual(await headings('/acme/environments/production/compare?from=2&to=3'), [
        'Exited',
        'Changed',
        'Unchanged',
      ]);
      assert.match(await page.locator('p.counts').innerText(), /^0 started, 1 exited, 1 changed, 1 unchanged$/);
      // An artifact that never stopped running anywhere has no "Ran before".
      await page.goto(`${server.url}/acme/flows/frontend/artifacts/${FP.web}`);
      assert.deepEqual(await page.getByRole('table', { name: 'Ran before' }).count(), 0);
      assert.deepEqual(await page.getByRole('table', { name: 'Running now' }).count(), 1);
      assert.equal(await page.locator('main ul:empty').count(), 0);
      await screenshots(page, server, '/acme/flows/frontend/trails/main-7', 'trail-main-7');
      await screenshots(page, server, `/acme/flows/frontend/artifacts/${FP.web}`, 'artifact-web');
    });

    it('shows the icon as a browser draws it', async () => {
      await page.setViewportSize({ width: 64, height: 64 });
      const response = await page.goto(`${server.url}/favicon.ico`);
      assert.equal(response?.status(), 200);
      await page.locator('img').screenshot({ path: join(SHOTS, 'favicon.png') });
      await page.setViewportSize(DESKTOP);
    });

    it('keeps every page within the width of a phone: a wide table scrolls inside its own box, which a keyboard can reach', async () => {
      await page.setViewportSize(PHONE);
      for (const path of PAGES) {
        await page.goto(`${server.url}${path}`);
        const [pageWidth, screenWidth] = await page.evaluate(() => {
          const window = globalThis as unknown as PageWindow;
          return [window.document.documentElement.scrollWidth, window.innerWidth];
        });
        assert.ok(pageWidth <= screenWidth, `${path}: the page is ${pageWidth}px wide on a ${screenWidth}px screen`);
        for (const box of await page.locator('div.table').all()) {
          assert.equal(await box.getAttribute('tabindex'), '0', path);
          assert.equal(await box.getAttribute('role'), 'region', path);
        }
      }
      await page.goto(`${server.url}/acme/flows/backend/trails/release-42`);
      const slots = page.getByRole('region', { name: /Attestations the template asks for/ });
      const [inner, outer] = await slots.evaluate((box: unknown) => [
        (box as PageElement).scrollWidth,
        (box as PageElement).clientWidth,
      ]);
      assert.ok(inner > outer, `the slots' table (${inner}px) scrolls inside its ${outer}px box`);
      // Its header cells keep their words whole: a table read sideways, not a column of letters.
      const narrowest = Math.min(
        ...(await slots
          .locator('th')
          .evaluateAll((cells: unknown[]) => cells.map((cell) => (cell as PageElement).clientWidth))),
      );
      assert.ok(narrowest >= 5 * 16, `every column at least 5rem wide: ${narrowest}px`);
      await page.setViewportSize(DESKTOP);
      for (const path of PAGES) await screenshots(page, server, path, shotName(path));
    });

    it('follows the system into a dark theme: light text on a dark page, every state word legible (axe-core, both themes)', async function () {
      this.timeout(180_000);
      const colours = async (scheme: 'light' | 'dark') => {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${server.url}/acme/environments/production`);
        return await page.evaluate(() => {
          const view = globalThis as unknown as {
            document: { body: unknown; querySelector(selector: string): unknown };
            getComputedStyle(element: unknown): { backgroundColor: string; color: string };
          };
          const body = view.getComputedStyle(view.document.body);
          const header = view.getComputedStyle(view.document.querySelector('th'));
          return { page: body.backgroundColor, text: body.color, header: header.backgroundColor };
        });
      };
      const light = await colours('light');
      const dark = await colours('dark');
      await page.emulateMedia({ colorScheme: 'light' });
      assert.ok(luminance(light.page) > 0.9 && luminance(light.text) < 0.05, JSON.stringify(light));
      assert.ok(luminance(dark.page) < 0.02 && luminance(dark.text) > 0.7, JSON.stringify(dark));
      assert.ok(luminance(dark.header) > luminance(dark.page), 'table headers stand out in the dark too');
      // axe-core checks the contrast of every text, the state words in their colours among them.
      const everywhere = ['/', ...PAGES];
      assert.deepEqual(await seriousViolations(browser, server, READER, everywhere, 'dark'), []);
      assert.deepEqual(await seriousViolations(browser, server, READER, everywhere, 'light'), []);
      for (const path of PAGES) await screenshots(page, server, path, shotName(path), { dark: true });
    });
  });
});
