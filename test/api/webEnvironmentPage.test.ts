// The environment, snapshot and comparison pages of a small org (webStory.ts) in headless Chromium
// against a real server. Screenshots land in test-output/web-pages/.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestServer } from './harness.ts';
import { screenshots, tableRows } from './webKit.ts';
import { API_IMAGE, FP, storyInChromium, WEB_IMAGE } from './webStory.ts';

describe('the environment pages', function () {
  const story = storyInChromium();
  let server: TestServer;
  let page: Page;
  before(() => ({ server, page } = story));
  const rows = (name: string | RegExp) => tableRows(page, name);

  it('shows what runs now: each artifact of the latest snapshot with its compliance and why', async () => {
    await page.goto(`${server.url}/acme/environments/production`);
    const now = page.getByRole('table', { name: /^What runs in production now/ });
    assert.match(
      (await now.locator('caption').innerText()).trim(),
      /^What runs in production now \(snapshot #3, taken (just now|\d+ seconds? ago)\)$/,
    );
    assert.deepEqual(await rows(/^What runs in production now/), [
      [
        API_IMAGE(42),
        'NON-COMPLIANT',
        "prod-rules, trail-compliance: the trail is NON-COMPLIANT in trail 'release-42' of flow 'backend'",
        '2',
      ],
      [WEB_IMAGE, 'COMPLIANT', 'It meets every attached policy.', '1'],
    ]);
    // It is the first section, before the history, and each name opens the artifact.
    assert.equal((await page.getByRole('heading', { level: 2 }).allInnerTexts())[0], 'Running now');
    await now.getByRole('link', { name: WEB_IMAGE }).click();
    await page.getByRole('heading', { name: `Artifact ${WEB_IMAGE}` }).waitFor({ timeout: 15_000 });
    // Without a policy: NO POLICY, and why; never reported: says so, with no chart of nothing.
    await page.goto(`${server.url}/acme/environments/staging`);
    assert.deepEqual(await rows(/^What runs in staging now/), [
      [API_IMAGE(42), 'NO POLICY', 'No policy is attached to the environment, so nothing judges it.', '1'],
    ]);
    await page.goto(`${server.url}/acme/environments/dev`);
    assert.match(await page.locator('main').innerText(), /Running now\n+Nothing has been reported yet\./);
    assert.equal(await page.getByRole('heading', { name: 'Compliance over time' }).count(), 0);
    for (const environment of ['staging', 'dev'])
      await screenshots(page, server, `/acme/environments/${environment}`, `environment-${environment}`);
  });

  it('fills the compare form with the last two snapshots, so one press compares them', async () => {
    await page.goto(`${server.url}/acme/environments/production`);
    assert.equal(await page.getByLabel('Earlier snapshot').inputValue(), '2');
    assert.equal(await page.getByLabel('Later snapshot').inputValue(), '3');
    assert.equal(await page.locator('#compare-range').innerText(), 'Snapshots #1 to #3.');
    await screenshots(page, server, '/acme/environments/production', 'environment-production');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page
      .getByRole('heading', { name: 'Snapshot production#2 compared with production#3' })
      .waitFor({ timeout: 15_000 });
    // One snapshot has nothing to compare with: no form.
    await page.goto(`${server.url}/acme/environments/staging`);
    assert.equal(await page.getByRole('button', { name: 'Compare' }).count(), 0);
    assert.equal(await page.getByRole('heading', { name: 'Compare two snapshots' }).count(), 0);
  });

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
