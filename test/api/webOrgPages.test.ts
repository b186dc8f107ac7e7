// The pages of an org as a whole, on a small org (webStory.ts) in headless Chromium against a real
// server: what a page says when it cannot show what was asked. Screenshots land in
// test-output/web-pages/.
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { attest } from './fixtures.ts';
import type { TestServer } from './harness.ts';
import { DESKTOP, screenshots, signIn, tableRows } from './webKit.ts';
import { API_IMAGE, COMMIT, FP, OTHER_READER, POLICY_V1, POLICY_V2, storyInChromium } from './webStory.ts';

describe('the pages of an org', function () {
  const story = storyInChromium();
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  before(() => ({ server, browser, page } = story));
  const rows = (name: string | RegExp) => tableRows(page, name);

  it('says what was not found as a missing thing, with the way on and the range of snapshots there is', async () => {
    const refused = async (path: string, org = 'acme') => {
      const response = await page.goto(`${server.url}${path}`);
      assert.equal(response?.status(), 404, path);
      assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Not found', path);
      const main = await page.locator('main').innerText();
      assert.doesNotMatch(main, /for your key|permission|not allowed/i, path);
      // The org's navigation, and where to look instead.
      if (org !== '')
        assert.equal(
          await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Flows' }).count(),
          1,
        );
      assert.ok(
        main.includes(
          org === ''
            ? 'Start again from the home page.'
            : `Check the address, or find it from the flows or the environments of ${org}.`,
        ),
        path,
      );
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
    // An address no page answers, mistyped: the same page in a browser; an API client keeps its JSON.
    assert.match(await refused('/acme/flow/backend'), /No page was found at this address\./);
    assert.match(await refused('/-x-/y/z', ''), /No page was found at this address\./);
    const client = await server.raw('GET', '/acme/flow/backend', undefined, {});
    assert.equal(client.status, 404);
    assert.match(client.text, /^\{"message":"Not Found\. You have requested this URI \[\/acme\/flow\/backend\]/);

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

  it('searches from the box on every org page: a fingerprint or commit prefix, and flow, trail and artifact names', async () => {
    for (const path of [
      '/acme/flows',
      '/acme/flows/backend/trails/release-42',
      '/acme/environments/production/snapshots/3',
    ])
      await page
        .goto(`${server.url}${path}`)
        .then(async () => assert.equal(await page.getByRole('search').count(), 1, path));
    await page.goto(`${server.url}/acme/environments/production`);
    const box = page.getByRole('searchbox', { name: /^Search acme/ });
    await box.fill('release-4');
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { name: 'Search acme for “release-4”' }).waitFor({ timeout: 15_000 });
    assert.ok(page.url().endsWith('/acme/search?q=release-4'), page.url());
    assert.equal(await page.getByRole('searchbox').inputValue(), 'release-4', 'the box keeps what was asked');
    const trails = await rows(/^Trails whose name contains/);
    assert.deepEqual(trails.map((row) => `${row[0]} ${row[1]} ${row[2]}`).sort(), [
      'release-40 backend COMPLIANT',
      'release-41 backend COMPLIANT',
      'release-42 backend NON-COMPLIANT',
    ]);
    await screenshots(page, server, '/acme/search?q=release-4', 'search-trails');

    const search = async (query: string) => {
      await page.goto(`${server.url}/acme/search?q=${encodeURIComponent(query)}`);
      return await page.getByRole('heading', { level: 2 }).allInnerTexts();
    };
    // A fingerprint prefix: the one fingerprint, its artifact, where it runs.
    assert.deepEqual(await search(FP.api42.slice(0, 8)), [`Fingerprint ${FP.api42}`]);
    assert.deepEqual(await rows(/^Artifacts with this fingerprint/), [
      [API_IMAGE(42), 'backend / release-42', 'NON-COMPLIANT', 'production, staging'],
    ]);
    await screenshots(page, server, `/acme/search?q=${FP.api42.slice(0, 8)}`, 'search-fingerprint');
    // A commit prefix, in capitals too.
    assert.deepEqual(await search(COMMIT.r41.slice(0, 7).toUpperCase()), [`Commit ${COMMIT.r41}`]);
    assert.equal((await rows(/^Artifacts with this commit/))[0][0], API_IMAGE(41));
    // Names, case aside: a flow, the artifacts.
    assert.deepEqual(await search('BACK'), ['Flows']);
    assert.deepEqual(
      (await rows(/^Flows whose name contains/)).map((row) => row.slice(0, 2)),
      [['backend', 'NON-COMPLIANT']],
    );
    assert.deepEqual(await search('acme/api'), ['Artifacts']);
    assert.deepEqual((await rows(/^Artifacts whose name contains/)).map((row) => row[0].split(' ')[0]).sort(), [
      API_IMAGE(40),
      API_IMAGE(41),
      API_IMAGE(42),
    ]);
    await page.getByRole('link', { name: API_IMAGE(41) }).click();
    await page.getByRole('heading', { name: `Artifact ${API_IMAGE(41)}` }).waitFor({ timeout: 15_000 });
    // Nothing found, hex or not; what was typed stays text.
    for (const query of ['zzz', 'abcdef', '<b>x</b>']) {
      await search(query);
      assert.equal(await page.getByRole('status').innerText(), `Nothing in acme matches “${query}”.`);
    }
    assert.equal(await page.locator('main b').count(), 0);
    await screenshots(page, server, '/acme/search?q=zzz', 'search-nothing');

    // Another org's key finds nothing of acme: its search is not found.
    const other = await browser.newPage({ viewport: DESKTOP });
    await signIn(other, server, OTHER_READER);
    assert.equal((await other.goto(`${server.url}/acme/search?q=api`))?.status(), 404);
    assert.doesNotMatch(await other.locator('main').innerText(), /registry|backend/);
    await other.close();
  });

  it('shows a policy: what each version says, where it is attached and what happened to it, linked from the environment', async () => {
    await page.goto(`${server.url}/acme/environments/production`);
    await page
      .getByRole('table', { name: 'Policies attached to the environment' })
      .getByRole('link', { name: 'prod-rules' })
      .click();
    await page.getByRole('heading', { name: 'Policy prod-rules' }).waitFor({ timeout: 15_000 });
    const main = await page.locator('main').innerText();
    assert.match(main, /Attached to production\. Created/);
    assert.equal(await page.getByRole('heading', { name: 'Version 2, the current one' }).count(), 1);
    assert.equal((await page.locator('pre.document').first().innerText()).trim(), POLICY_V2.trim());
    assert.deepEqual(
      await rows('Earlier versions of the policy, newest first').then((found) =>
        found.map((row) => [row[0], row[2], row[3]]),
      ),
      [['1', 'admin', 'first']],
    );
    await page.getByText('Version 1', { exact: true }).click();
    assert.equal((await page.locator('details pre.document').innerText()).trim(), POLICY_V1.trim());
    assert.deepEqual(
      (await rows('What happened to the policy, newest first')).map((row) => row[1]),
      ['Attached to production (version 2)', 'Version 2 written', 'Created (version 1)'],
    );
    await screenshots(page, server, '/acme/policies/prod-rules', 'policy-prod-rules', { dark: true });

    await page.goto(`${server.url}/acme/policies`);
    assert.deepEqual(
      (await rows('Environment policies, live ones first')).map((row) => row.slice(0, 3)),
      [
        ['change-control', 'nothing', '1'],
        ['prod-rules', 'production', '2'],
      ],
    );
    await screenshots(page, server, '/acme/policies', 'policies');
    // The environment list links each attached policy too.
    await page.goto(`${server.url}/acme/environments`);
    await page.getByRole('table').getByRole('link', { name: 'prod-rules' }).click();
    await page.getByRole('heading', { name: 'Policy prod-rules' }).waitFor({ timeout: 15_000 });
    assert.equal((await page.goto(`${server.url}/acme/policies/nope`))?.status(), 404);
  });

  it('shows controls in force and archived, and a control with the policies that ask for it and its decisions', async () => {
    await page.goto(`${server.url}/acme/flows`);
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Controls' }).click();
    await page.getByRole('heading', { name: 'Controls of acme' }).waitFor({ timeout: 15_000 });
    assert.deepEqual(await rows('Controls in force'), [['CC8.1', 'Change management', '1', 'change-control']]);
    assert.deepEqual(await rows('Archived controls'), [['LEGACY-1', 'Manual release sign-off', '1', '']]);
    await screenshots(page, server, '/acme/controls', 'controls');

    await page.getByRole('link', { name: 'CC8.1' }).click();
    await page.getByRole('heading', { name: 'Control CC8.1: Change management' }).waitFor({ timeout: 15_000 });
    assert.deepEqual(
      (await rows('Decisions on the control, newest first')).map((row) => [row[1], row[2], row[3], row[5]]),
      [
        [
          'NON-COMPLIANT',
          'change-board',
          'backend / release-42',
          'Change board rejected release 42: coverage below the bar',
        ],
        ['COMPLIANT', 'change-board', 'backend / release-41', 'Change board approved release 41'],
      ],
    );
    // No environment attaches the policy that asks for it: the page says which policy does.
    assert.match(
      await page.locator('main').innerText(),
      /Policies change-control ask for it; no environment attaches them\./,
    );
    await screenshots(page, server, '/acme/controls/CC8.1', 'control-cc8-1', { dark: true });
    const decisions = page.getByRole('table', { name: 'Decisions on the control, newest first' });
    await decisions.getByRole('link', { name: 'change-board' }).first().click();
    await page.getByRole('heading', { name: 'Attestation change-board' }).waitFor({ timeout: 15_000 });
    assert.match(page.url(), /\/acme\/flows\/backend\/trails\/release-42\?attestation_id=/);

    await page.goto(`${server.url}/acme/controls/LEGACY-1`);
    assert.match(await page.locator('p.verdict').innerText(), /^ARCHIVED/);
    assert.match(await page.locator('main').innerText(), /No decisions yet\./);
    // An org with controls turned off says so; an unknown control is not found.
    await page.goto(`${server.url}/quiet/controls`);
    assert.match(await page.getByRole('status').innerText(), /Controls \(a beta\) are turned off for quiet/);
    assert.equal((await page.goto(`${server.url}/acme/controls/nope`))?.status(), 404);
  });

  it('summarises the org at home: its environments by compliance and the trails that turned non-compliant lately', async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'acme', exact: true }).click();
    await page.getByRole('heading', { name: 'acme', level: 1 }).waitFor({ timeout: 15_000 });
    assert.ok(page.url().endsWith('/acme'), page.url());
    assert.deepEqual(await page.locator('ul.tally li').allInnerTexts(), ['1 NON-COMPLIANT', '2 NO POLICY']);
    assert.deepEqual(
      (await rows('Environments, those that need attention first')).map((row) => row.slice(0, 3)),
      [
        ['production', 'NON-COMPLIANT', 'Latest snapshot: Something in it fails the attached policies.'],
        ['dev', 'NO POLICY', 'No policy is attached and nothing has been reported yet.'],
        [
          'staging',
          'NO POLICY',
          'No policy is attached, so nothing judges what runs here. Attach one to get a verdict.',
        ],
      ],
    );
    const trails = async () =>
      (await rows('Non-compliant trails, the most recently changed first')).map((row) => row.slice(0, 3).join(' '));
    assert.deepEqual(await trails(), ['release-42 backend NON-COMPLIANT']);
    await screenshots(page, server, '/acme', 'org-home', { dark: true });

    // A failing test on release 41 turns it non-compliant: it heads the list.
    const failed = await attest(server, 'acme', 'backend', 'release-41', 'junit', {
      attestation_name: 'unit-tests',
      artifact_fingerprint: FP.api41,
      junit_results: [{ name: 'api unit tests', tests: 412, failures: 2, errors: 0 }],
    });
    assert.equal(failed.status, 201, failed.text);
    await page.reload();
    assert.deepEqual(await trails(), ['release-41 backend NON-COMPLIANT', 'release-42 backend NON-COMPLIANT']);
    await page.getByRole('link', { name: 'release-41' }).click();
    await page.getByRole('heading', { name: 'Trail release-41' }).waitFor({ timeout: 15_000 });
    assert.match(await page.locator('p.verdict').innerText(), /1 attestation fails: unit-tests\./);

    // The home of an org with nothing yet says so; another org's key finds no home here.
    await page.goto(`${server.url}/quiet`);
    assert.match(await page.locator('main').innerText(), /No environments yet[^]*No trail is non-compliant\./);
    const other = await browser.newPage({ viewport: DESKTOP });
    await signIn(other, server, OTHER_READER);
    assert.equal((await other.goto(`${server.url}/acme`))?.status(), 404);
    await other.close();
  });
});
