// The trail page of a small org (webStory.ts) in headless Chromium against a real server: what
// happened to the trail, in words, with links to what it happened to. Screenshots land in
// test-output/web-pages/.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestServer } from './harness.ts';
import { screenshots, tableRows } from './webKit.ts';
import { FP, storyInChromium } from './webStory.ts';

const RELEASE_42 = '/acme/flows/backend/trails/release-42';

describe('the trail page', function () {
  const story = storyInChromium();
  let server: TestServer;
  let page: Page;
  before(() => ({ server, page } = story));
  const rows = (name: string | RegExp) => tableRows(page, name);

  it('says why in words: the failing condition of each slot, the missing one, the override, and never an attestation id', async () => {
    await page.goto(`${server.url}${RELEASE_42}`);
    assert.equal(
      await page.locator('p.verdict').innerText(),
      'NON-COMPLIANT 4 attestations fail: change-board, unit-tests, coverage and quality. 1 is not reported yet: review.',
    );
    const why = Object.fromEntries(
      (await rows(/Attestations the template asks for/)).map(([, name, , state, reason]) => [
        name,
        `${state}: ${reason}`,
      ]),
    );
    assert.deepEqual(why, {
      review: 'MISSING: no generic attestation named review has been reported',
      'change-board':
        'NON-COMPLIANT: Not in the template; the decision is non-compliant: Change board rejected release 42: coverage below the bar',
      'unit-tests': 'NON-COMPLIANT: api unit tests: 1 failure',
      coverage: 'NON-COMPLIANT: line_coverage 62 < 80',
      quality: 'NON-COMPLIANT: coverage 62 < 80',
    });
    assert.deepEqual(await rows('Artifacts of the trail').then((found) => found.map((row) => row[3])), [
      '3 attestations fail: unit-tests, coverage and quality.',
    ]);
    assert.doesNotMatch(await page.locator('main').innerText(), /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/);

    await page.goto(`${server.url}/acme/flows/backend/trails/release-40`);
    const review = (await rows(/Attestations the template asks for/)).find((row) => row[1] === 'review')!;
    assert.deepEqual(review.slice(3), [
      'COMPLIANT',
      'overridden as compliant: Emergency fix, reviewed after the merge (the overridden attestation)',
    ]);
    await screenshots(page, server, '/acme/flows/backend/trails/release-40', 'trail-release-40');
    await page.getByRole('link', { name: 'the overridden attestation' }).click();
    await page.getByRole('heading', { name: 'Attestation review' }).waitFor({ timeout: 15_000 });
    assert.match(await page.locator('section').innerText(), /Merged before review/);
  });

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
    // The attestation says why beside its verdict, and names its artifact as the trail does.
    const section = await page.locator('section').innerText();
    assert.match(section, /\nWhy: api unit tests: 1 failure\n/);
    assert.match(section, new RegExp(`Artifact: api \\(${FP.api42.slice(0, 12)}…\\)`));
    const shown = new URL(page.url());
    await screenshots(page, server, `${shown.pathname}${shown.search}`, 'attestation-unit-tests');
  });
});
