// What the page tests share: signing in through the form, axe-core's serious and critical findings
// on a list of pages, and screenshots of a page as a desktop and a phone show it (light, and dark
// where asked), into test-output/web-pages/ for a person to look at.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from './harness.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHOTS = join(root, 'test-output', 'web-pages');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const DESKTOP = { width: 1200, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** What the functions run in a page use of its elements and window (the tests' TypeScript has no DOM types). */
export interface PageElement {
  getAttribute(name: string): string | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly textContent: string | null;
}
export interface PageWindow {
  document: { documentElement: PageElement };
  innerWidth: number;
}

export async function signIn(page: Page, server: TestServer, key: string): Promise<void> {
  await page.goto(`${server.url}/sign-in`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Your organizations' }).waitFor({ timeout: 15_000 });
}

/** "path: rule (impact)" for each serious or critical axe-core finding on each page, signed in with `key` (and each page not answered 200). */
export async function seriousViolations(
  browser: Browser,
  server: TestServer,
  key: string,
  paths: readonly string[],
  colorScheme: 'light' | 'dark' = 'light',
): Promise<string[]> {
  // The pages' policy runs no script of ours; only the checker gets in, in a context of its own.
  const context = await browser.newContext({ bypassCSP: true, colorScheme });
  try {
    const checked = await context.newPage();
    await signIn(checked, server, key);
    const found: string[] = [];
    for (const path of paths) {
      const response = await checked.goto(`${server.url}${path}`);
      if (response?.status() !== 200) found.push(`${path}: answered ${response?.status()}, not the page`);
      await checked.addScriptTag({ content: AXE });
      const violations = await checked.evaluate(async () => {
        const result = await (
          globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> } }
        ).axe.run();
        return result.violations.map(({ id, impact }) => `${id} (${impact})`);
      });
      found.push(...violations.filter((text) => /\((serious|critical)\)/.test(text)).map((text) => `${path}: ${text}`));
    }
    return found;
  } finally {
    await context.close();
  }
}

/**
 * The page at `path` as a desktop and a phone show it: `<name>-desktop.png` and `<name>-phone.png`
 * (and `-dark` ones when asked). Leaves the page at the desktop size.
 */
export async function screenshots(
  page: Page,
  server: TestServer,
  path: string,
  name: string,
  options: { dark?: boolean } = {},
): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const schemes: Array<'light' | 'dark'> = options.dark === true ? ['light', 'dark'] : ['light'];
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [width, size] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto(`${server.url}${path}`);
      const suffix = scheme === 'dark' ? `-${width}-dark` : `-${width}`;
      await page.screenshot({ path: join(SHOTS, `${name}${suffix}.png`), fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
}

/** The rows of the table a page names by its caption, a cell's text per column. */
export async function tableRows(page: Page, name: string | RegExp): Promise<string[][]> {
  return (await page.getByRole('table', { name }).locator('tbody tr').allInnerTexts()).map((row) =>
    row.split('\t').map((cell) => cell.trim()),
  );
}
