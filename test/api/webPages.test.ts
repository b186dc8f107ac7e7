// The pages behind every html_url, in headless Chromium against a real server: signed in with a
// key, browse flows -> a flow (its trails, paged) -> a trail -> an attestation -> its evidence, an
// artifact (where it runs, its attestations, provenance), environments -> an environment with its
// compliance chart (the SVG's bars carry the API's own counts) and policies -> a snapshot -> two
// snapshots compared. The hostile corpus planted through the API in every field the pages show
// stays text (no markup runs, the probe stays unset, no dialog); axe-core finds no serious or
// critical violation on any page; a key of another org is refused everywhere. Screenshots land in
// test-output/web-ui/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { seriousViolations } from './webKit.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, scanResults } from './fixtures.ts';
import type { Artifact, Attestation, Environment, Flow, Page as ListPage, Snapshot, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { HOSTILE, HOSTILE_PARTS, HOSTILE_SHORT } from './hostile.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outputDir = join(root, 'test-output', 'web-ui');
/** What the functions run in the page use of its elements (the tests' TypeScript has no DOM types). */
interface PageElement {
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { height: number };
}

const FP_APP = 'a1'.repeat(32);
const FP_STRAY = 'b2'.repeat(32);
const FP_NEW = 'c3'.repeat(32);
const APP_FILE = `app${HOSTILE_SHORT}.tgz`;
const STRAY_IMAGE = `registry.test/stray${HOSTILE_SHORT}:1`;
const NEW_IMAGE = 'registry.test/new:2';
const TEMPLATE = [
  'version: 1',
  'trail:',
  '  attestations:',
  '    - name: scan',
  '      type: scan',
  '  artifacts:',
  '    - name: app',
  '      attestations:',
  '        - name: sbom',
  '          type: generic',
  '',
].join('\n');
const POLICY = [
  '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1',
  `# ${HOSTILE_PARTS[0]} ${HOSTILE_PARTS[1]}`,
  'artifacts:',
  '  provenance:',
  '    required: true',
  '  attestations:',
  '    - name: sbom',
  '      type: generic',
  '',
].join('\n');
const EXTRA_TRAILS = 21;

/** Text as written: the pages wrap text holding direction controls in an isolate (FSI ... PDI). */
function withoutIsolates(text: string): string {
  return text.replace(/[\u2068\u2069]/g, '');
}

function k8sReport(
  pods: { pod: string; namespace: string; image: string; fingerprint: string }[],
): Record<string, unknown> {
  return {
    artifacts: pods.map(({ pod, namespace, image, fingerprint }) => ({
      podName: pod,
      namespace,
      creationTimestamp: 1_700_000_000,
      digests: { [image]: fingerprint },
      owners: [],
    })),
  };
}

describe('web pages behind every html_url', function () {
  let server: TestServer;
  let configDir: string;
  let scanId: string;
  /** The API's own counts per snapshot: [index, compliant, non-compliant, unknown]. */
  let apiCounts: Array<Array<number | undefined>>;

  before(async () => {
    configDir = join(tmpdir(), `cev-webpages-${process.pid}`);
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
    const ok = (reply: { status: number; text: string }, what: string) =>
      assert.ok(reply.status === 200 || reply.status === 201, `${what}: ${reply.status} ${reply.text}`);

    await createFlow(server, 'acme', 'backend', TEMPLATE, HOSTILE);
    await beginTrail(server, 'acme', 'backend', 'release-1', {
      description: HOSTILE,
      origin_url: 'javascript:window.pwned=1',
      user_data: { note: HOSTILE },
      external_urls: { build: { href: 'https://ci.example.test/7' }, bad: { href: 'javascript:window.pwned=1' } },
      git_commit_info: {
        sha1: commit('release'),
        message: HOSTILE,
        author: HOSTILE_SHORT,
        branch: HOSTILE_SHORT,
        url: 'javascript:window.pwned=1',
        timestamp: 1_700_000_000,
      },
    });
    for (let index = 1; index <= EXTRA_TRAILS; index++)
      await beginTrail(server, 'acme', 'backend', `build-${String(index).padStart(2, '0')}`, {
        description: `build ${index}`,
      });
    await attestArtifact(server, 'acme', 'backend', {
      fingerprint: FP_APP,
      filename: APP_FILE,
      git_commit: commit('release'),
      git_commit_info: {
        sha1: commit('release'),
        message: HOSTILE,
        author: HOSTILE_SHORT,
        branch: 'main',
        timestamp: 1_700_000_000,
      },
      trail_name: 'release-1',
      template_reference_name: 'app',
      build_url: 'javascript:window.pwned=1',
      commit_url: 'https://git.example.test/c/1',
      repo_url: 'https://git.example.test/repo',
      annotations: { why: HOSTILE },
    });
    // The same build in a second trail: the artifact page shows the record of the trail it came from.
    await attestArtifact(server, 'acme', 'backend', {
      fingerprint: FP_APP,
      filename: 'app.tgz',
      git_commit: commit('rebuild'),
      trail_name: 'build-01',
      template_reference_name: 'app',
    });
    ok(
      await attest(
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
      ),
      'scan',
    );
    ok(
      await attest(server, 'acme', 'backend', 'release-1', 'generic', {
        attestation_name: 'sbom',
        artifact_fingerprint: FP_APP,
        description: HOSTILE,
        user_data: { who: HOSTILE },
      }),
      'sbom',
    );
    scanId = (await server.get<ListPage<Attestation>>('/api/v2/attestations/acme?flow=backend&name_regex=^scan$')).body
      .data[0].attestation_id;

    ok(
      await server.multipart('PUT', '/api/v2/policies/acme', {
        payload: JSON.stringify({ name: 'prod-rules', description: HOSTILE, comment: 'first', type: 'env' }),
        policy_file: { filename: 'policy.yml', content: POLICY },
      }),
      'policy',
    );
    ok(
      await server.json('PUT', '/api/v2/environments/acme', { name: 'prod', type: 'K8S', description: HOSTILE }),
      'environment',
    );
    ok(
      await server.json('PUT', '/api/v2/environments/acme', {
        name: 'staging',
        type: 'server',
        description: 'no snapshots yet',
      }),
      'second environment',
    );
    // #1 without a policy: both unknown; #2 the policy attached; #3 stray gone, a new one started, app scaled.
    ok(
      await server.json(
        'PUT',
        '/api/v2/environments/acme/prod/report/K8S',
        k8sReport([
          { pod: 'app-1', namespace: 'shop', image: 'registry.test/app:1', fingerprint: FP_APP },
          { pod: `stray-${HOSTILE_SHORT}`, namespace: HOSTILE_SHORT, image: STRAY_IMAGE, fingerprint: FP_STRAY },
        ]),
      ),
      'report 1',
    );
    ok(
      await server.json('POST', '/api/v2/environments/acme/prod/policies', { policy_names: ['prod-rules'] }),
      'attach',
    );
    ok(
      await server.json(
        'PUT',
        '/api/v2/environments/acme/prod/report/K8S',
        k8sReport([
          { pod: 'app-1', namespace: 'shop', image: 'registry.test/app:1', fingerprint: FP_APP },
          { pod: 'app-2', namespace: 'shop', image: 'registry.test/app:1', fingerprint: FP_APP },
          { pod: 'new-1', namespace: 'shop', image: NEW_IMAGE, fingerprint: FP_NEW },
        ]),
      ),
      'report 2',
    );
    const count = (await server.get<Environment>('/api/v2/environments/acme/prod')).body.snapshot_count;
    assert.ok(count, 'the environment counts its snapshots');
    apiCounts = [];
    for (let index = 1; index <= count; index++) {
      const snapshot = (await server.get<Snapshot>(`/api/v2/snapshots/acme/prod/${index}`)).body;
      apiCounts.push([
        index,
        snapshot.artifact_compliance_count?.true,
        snapshot.artifact_compliance_count?.false,
        snapshot.artifact_compliance_count?.null,
      ]);
    }
  });
  after(async () => {
    await server?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  const PATHS = () => [
    '/acme/flows',
    '/acme/flows/backend',
    '/acme/flows/backend?page=2',
    '/acme/flows/backend/trails/release-1',
    `/acme/flows/backend/trails/release-1?attestation_id=${scanId}`,
    `/acme/flows/backend/artifacts/${FP_APP}`,
    '/acme/environments',
    '/acme/environments/prod',
    '/acme/environments/staging',
    '/acme/environments/prod/snapshots/3',
    '/acme/environments/prod/compare?from=1&to=3',
    `/acme/search?q=${encodeURIComponent(HOSTILE_SHORT)}`,
    '/acme/search?q=app',
    '/acme/policies',
    '/acme/policies/prod-rules',
    '/acme/controls',
  ];

  it('seeds three snapshots: unknown before the policy, then one compliant and one not', () => {
    assert.deepEqual(apiCounts, [
      [1, 0, 0, 2],
      [2, 1, 1, 0],
      [3, 1, 1, 0],
    ]);
  });

  it('sends a signed-out visitor to sign in, and answers every page with the strict headers and no script', async () => {
    const signedIn = await server.raw('POST', '/sign-in', 'key=acme-reader-key-1', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0];
    for (const path of PATHS()) {
      const reply = await server.get(path, { key: null });
      assert.equal(reply.status, 303, path);
      assert.equal(reply.headers.location, `/sign-in?next=${encodeURIComponent(path)}`, path);
      const shown = await server.raw('GET', path, undefined, { cookie });
      assert.equal(shown.status, 200, `${path}: ${shown.status} ${JSON.stringify(shown.headers)}`);
      assert.match(
        String(shown.headers['content-security-policy']),
        /default-src 'none'.*frame-ancestors 'none'; base-uri 'none'; object-src 'none'/,
        path,
      );
      assert.equal(shown.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(shown.headers['referrer-policy'], 'no-referrer', path);
      // Markup of our own only: no script element, no javascript: link, and no handler attribute
      // (looked for outside attribute values: the search box holds what was typed, escaped, as its value).
      assert.doesNotMatch(shown.text, /<script|href="(?!\/|https?:)/i, path);
      assert.doesNotMatch(shown.text.replace(/="[^"]*"/g, '=""'), /<[a-z][^>]*\son\w+=/i, path);
    }
  });

  it('serves a page behind every html_url the API returns', async () => {
    const signedIn = await server.raw('POST', '/sign-in', 'key=acme-reader-key-1', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0];
    const artifact = (await server.get<Artifact>(`/api/v2/artifacts/acme/backend/fingerprint/${FP_APP}`)).body;
    const snapshot = (await server.get<Snapshot>('/api/v2/snapshots/acme/prod/-1')).body;
    const urls: Record<string, string | null | undefined> = {
      flow: (await server.get<Flow>('/api/v2/flows/acme/backend')).body.html_url,
      trail: (await server.get<Trail>('/api/v2/trails/acme/backend/release-1')).body.html_url,
      attestation: (await server.get<ListPage<Attestation>>(`/api/v2/attestations/acme?attestation_id=${scanId}`)).body
        .data[0].html_url,
      artifact: artifact.html_url,
      environment: (await server.get<Environment>('/api/v2/environments/acme/prod')).body.html_url,
      snapshot: snapshot.html_url,
      'snapshot artifact': snapshot.artifacts.find((entry) => entry.fingerprint === FP_APP)?.html_url,
    };
    for (const [what, url] of Object.entries(urls)) {
      assert.ok(url, `${what} has an html_url`);
      const { pathname, search } = new URL(url);
      const shown = await server.raw('GET', `${pathname}${search}`, undefined, { cookie });
      assert.equal(shown.status, 200, `${what}: ${url}`);
      assert.match(String(shown.headers['content-type']), /^text\/html/, what);
    }
  });

  it('answers odd page addresses with a page or a 404, never a server error, and refuses downloads to another org', async () => {
    const session = async (key: string) =>
      String(
        (await server.raw('POST', '/sign-in', `key=${key}`, { 'content-type': 'application/x-www-form-urlencoded' }))
          .headers['set-cookie'],
      ).split(';')[0];
    const cookie = await session('acme-reader-key-1');
    const cases: [string, number][] = [
      ['/acme/flows?page=abc', 200],
      ['/acme/flows/backend?page=-1', 200],
      ['/acme/flows/backend?page=999999', 200],
      ['/acme/environments/prod?page=99', 200],
      ['/acme/environments/prod/snapshots/0', 404],
      ['/acme/environments/prod/snapshots/abc', 404],
      ['/acme/environments/prod/snapshots/99', 404],
      ['/acme/environments/prod/snapshots/99999999999999999999', 404],
      [`/acme/environments/prod/compare?from=${encodeURIComponent('<script>')}&to=3`, 404],
      ['/acme/environments/prod/compare?from=staging%231&to=3', 404],
      ['/acme/environments/nope', 404],
      ['/acme/flows/nope/artifacts/zz', 404],
      ['/nope/flows', 404],
      [`/acme/flows/backend/trails/release-1/evidence/${encodeURIComponent('../../x')}`, 404],
    ];
    for (const [path, expected] of cases) {
      const reply = await server.raw('GET', path, undefined, { cookie });
      assert.equal(reply.status, expected, path);
      assert.match(String(reply.headers['content-type']), /^text\/html/, path);
    }
    const shown = await server.raw('GET', '/acme/flows/backend?page=999999', undefined, { cookie });
    assert.match(shown.text, /Previous page/, 'a page past the end links back');

    const other = await session('other-reader-key-1');
    for (const path of [
      '/acme/environments/prod/auditlog',
      `/acme/flows/backend/trails/release-1/evidence/${scanId}`,
    ]) {
      assert.equal((await server.raw('GET', path, undefined, { cookie })).status, 200, path);
      const refused = await server.raw('GET', path, undefined, { cookie: other });
      assert.equal(refused.status, 404, path);
      assert.doesNotMatch(refused.text, /evidence body|registry\.test/, path);
    }
  });

  describe('in Chromium', function () {
    let browser: Browser;
    let page: Page;
    const dialogs: string[] = [];

    before(async function () {
      if (!hasChromium()) this.skip();
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      mkdirSync(outputDir, { recursive: true });
    });
    after(async () => {
      await browser?.close();
    });

    async function signIn(key: string, on: Page = page): Promise<void> {
      await on.goto(`${server.url}/sign-in`);
      await on.getByLabel('API key').fill(key);
      await on.getByRole('button', { name: 'Sign in' }).click();
      await on.getByRole('heading', { name: 'Your organizations' }).waitFor({ timeout: 15_000 });
    }

    /** Nothing planted ran: no markup from the data, no probe, no dialog, links only ours or http(s). */
    async function assertInert(shown: string[]): Promise<void> {
      const where = page.url();
      const main = await page.locator('main').innerText();
      for (const text of shown) assert.ok(main.includes(text), `${where} shows as text: ${text.slice(0, 60)}`);
      assert.equal(
        await page
          .locator('main script, main img, main iframe, main object, main [onerror], main [onload], main [style]')
          .count(),
        0,
        where,
      );
      assert.equal(await page.locator('main svg:not(.compliance-chart), main svg svg').count(), 0, where);
      for (const href of await page
        .locator('a')
        .evaluateAll<string[], undefined, PageElement>((links) => links.map((a) => a.getAttribute('href') ?? ''))) {
        assert.match(href, /^(\/|https?:)/, `${where}: ${href}`);
      }
      assert.equal(await page.evaluate(() => (globalThis as unknown as { pwned?: unknown }).pwned), undefined, where);
      assert.deepEqual(dialogs, [], where);
    }

    async function shot(name: string): Promise<void> {
      await page.screenshot({ path: join(outputDir, `${name}.png`), fullPage: true });
    }

    it('browses flows -> flow (paged trails) -> trail -> attestation -> evidence download', async () => {
      await signIn('acme-reader-key-1');
      await page.getByRole('link', { name: 'flows' }).click();
      await page.getByRole('heading', { name: 'Flows of acme' }).waitFor({ timeout: 15_000 });
      assert.match(await page.getByRole('table').locator('tbody tr').first().innerText(), /backend/);
      // A list cuts long descriptions; what it shows of them is text.
      await assertInert(HOSTILE_PARTS.slice(0, 3));
      assert.match(await page.getByRole('table').locator('tbody tr').first().innerText(), /…$/);
      await shot('flows');

      await page.getByRole('link', { name: 'backend', exact: true }).click();
      await page.getByRole('heading', { name: 'Flow backend' }).waitFor({ timeout: 15_000 });
      const firstPage = await page
        .getByRole('table', { name: /Trails of the flow/ })
        .locator('tbody tr')
        .allInnerTexts();
      assert.equal(firstPage.length, 20);
      assert.match(
        await page.getByRole('navigation', { name: 'Pages of trails' }).innerText(),
        /Page 1 of 2 \(22 in all\)/,
      );
      await assertInert(HOSTILE_PARTS);
      await shot('flow');
      await page.getByRole('link', { name: 'Next page' }).click();
      await page
        .getByRole('navigation', { name: 'Pages of trails' })
        .getByText('Page 2 of 2')
        .waitFor({ timeout: 15_000 });
      const secondPage = await page
        .getByRole('table', { name: /Trails of the flow/ })
        .locator('tbody tr')
        .allInnerTexts();
      assert.equal(secondPage.length, EXTRA_TRAILS + 1 - 20);
      const everyTrail = [...firstPage, ...secondPage].map((row) => row.split('\t')[0]);
      assert.equal(new Set(everyTrail).size, EXTRA_TRAILS + 1, 'each trail on exactly one page');
      await shot('flow-page-2');

      const releaseOn = firstPage.some((row) => row.startsWith('release-1')) ? 1 : 2;
      if (releaseOn === 1) await page.getByRole('link', { name: 'Previous page' }).click();
      await page.getByRole('link', { name: 'release-1', exact: true }).click();
      await page.getByRole('heading', { name: 'Trail release-1' }).waitFor({ timeout: 15_000 });
      await assertInert(HOSTILE_PARTS);
      const source = withoutIsolates(
        await page.getByRole('heading', { name: 'Source' }).locator('xpath=following-sibling::ul[1]').innerText(),
      );
      assert.ok(source.includes(`on ${HOSTILE_SHORT} by ${HOSTILE_SHORT}: `), source.slice(0, 200));
      assert.ok(source.includes('(javascript:window.pwned=1)'), 'the commit URL as text');
      await page
        .getByRole('table', { name: /Attestations the template asks for/ })
        .getByRole('link', { name: 'scan', exact: true })
        .click();
      await page.getByRole('heading', { name: 'Attestation scan' }).waitFor({ timeout: 15_000 });
      assert.ok(page.url().includes(`attestation_id=${scanId}`));
      await assertInert(HOSTILE_PARTS);
      await shot('attestation');
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 15_000 }),
        page.getByRole('link', { name: 'report.txt' }).click(),
      ]);
      const saved = join(configDir, 'download');
      await download.saveAs(saved);
      assert.equal(readFileSync(saved, 'utf8'), 'evidence body');
    });

    it('shows an artifact: where it runs and ran, its attestations and provenance', async () => {
      await page.goto(`${server.url}/acme/flows/backend/trails/release-1`);
      await page
        .getByRole('table', { name: 'Artifacts of the trail' })
        .getByRole('link', { name: 'app', exact: true })
        .click();
      await page.getByRole('heading', { name: /^Artifact \u2068?app/ }).waitFor({ timeout: 15_000 });
      assert.equal(withoutIsolates(await page.getByRole('heading', { level: 1 }).innerText()), `Artifact ${APP_FILE}`);
      assert.ok(page.url().endsWith(`/acme/flows/backend/artifacts/${FP_APP}?trail=release-1`), page.url());
      assert.deepEqual(
        await page.getByRole('table', { name: 'Running now' }).locator('tbody tr').allInnerTexts(),
        ['prod\tprod#1'],
        'running since the snapshot it started in',
      );
      const attestations = await page
        .getByRole('table', { name: 'Attestations of the artifact' })
        .locator('tbody tr')
        .allInnerTexts();
      assert.deepEqual(attestations, ['sbom\tCOMPLIANT']);
      const provenance = await page
        .getByRole('heading', { name: 'Provenance' })
        .locator('xpath=following-sibling::ul[1]')
        .innerText();
      assert.match(provenance, /Flow backend, trail release-1, template artifact app/);
      assert.match(provenance, /build: javascript:window\.pwned=1/, 'a javascript: build URL shown as text');
      assert.equal(await page.getByRole('link', { name: 'javascript:window.pwned=1' }).count(), 0);
      await assertInert([...HOSTILE_PARTS, HOSTILE_SHORT, APP_FILE]);
      await shot('artifact');
      // Its attestation's page: the sbom's description and user data, as text.
      await page.getByRole('link', { name: 'sbom', exact: true }).click();
      await page.getByRole('heading', { name: 'Attestation sbom' }).waitFor({ timeout: 15_000 });
      await assertInert(HOSTILE_PARTS);
      await page.goBack();
      await page.goto(`${server.url}/acme/flows/backend/artifacts/${FP_APP}?trail=build-01`);
      const other = await page
        .getByRole('heading', { name: 'Provenance' })
        .locator('xpath=following-sibling::ul[1]')
        .innerText();
      assert.match(other, /Flow backend, trail build-01, template artifact app/);
      await page.goBack();
      await page.getByRole('link', { name: 'prod#1' }).click();
      await page.getByRole('heading', { name: 'Snapshot prod#1' }).waitFor({ timeout: 15_000 });
      // Before any policy: nothing judged them (NO POLICY, never NON-COMPLIANT); the stray's pod is named namespace/pod, as text.
      const running = await page
        .getByRole('table', { name: 'Artifacts running in the snapshot' })
        .locator('tbody tr')
        .allInnerTexts();
      assert.deepEqual(
        running.map((row) => row.split('\t')[1]),
        ['NO POLICY', 'NO POLICY'],
      );
      assert.match(await page.locator('p.verdict').innerText(), /^NO POLICY No policy is attached/);
      assert.equal(await page.locator('p.counts').innerText(), '2 running artifacts, not judged (no policy)');
      await assertInert([STRAY_IMAGE, `${HOSTILE_SHORT}/stray-${HOSTILE_SHORT}`]);
      await shot('snapshot-1');
    });

    it('shows an environment with its compliance chart (the API counts) and its policies', async () => {
      await page.goto(`${server.url}/`);
      await page.getByRole('link', { name: 'environments' }).click();
      await page.getByRole('heading', { name: 'Environments of acme' }).waitFor({ timeout: 15_000 });
      const rows = await page.getByRole('table').locator('tbody tr').allInnerTexts();
      assert.deepEqual(
        rows.map((row) => row.split('\t').slice(0, 4)),
        [
          ['prod', 'K8S', 'NON-COMPLIANT', '3'],
          ['staging', 'server', 'NO POLICY', '0'],
        ],
      );
      await shot('environments');
      await page.getByRole('link', { name: 'prod', exact: true }).click();
      await page.getByRole('heading', { name: 'Environment prod' }).waitFor({ timeout: 15_000 });

      const chart = page.locator('figure.chart svg.compliance-chart');
      assert.equal(await chart.count(), 1);
      assert.equal(await chart.getAttribute('role'), 'img');
      const bars = await chart
        .locator('g.snapshot')
        .evaluateAll<number[][], undefined, PageElement>((groups) =>
          groups.map((group) =>
            ['snapshot', 'compliant', 'non-compliant', 'unknown'].map((key) =>
              Number(group.getAttribute(`data-${key}`)),
            ),
          ),
        );
      assert.deepEqual(bars, apiCounts, 'one bar per snapshot with the API counts');
      // The bars are drawn: each coloured segment has a height in proportion to its count.
      const segments = await chart
        .locator('rect.compliant, rect.non-compliant, rect.unknown')
        .evaluateAll<Array<[string | null, number]>, undefined, PageElement>((rects) =>
          rects.map((rect) => [rect.getAttribute('class'), Math.round(rect.getBoundingClientRect().height)]),
        );
      assert.deepEqual(
        segments.map(([kind]) => kind),
        ['unknown', 'compliant', 'non-compliant', 'compliant', 'non-compliant'],
      );
      const unit = Number(segments[1][1]);
      assert.ok(unit > 20, `a visible bar: ${unit}px`);
      assert.equal(segments[0][1], unit * 2, 'two unknown artifacts stand twice as tall as one');
      const table = await page
        .getByRole('table', { name: /Artifacts by compliance per snapshot/ })
        .locator('tbody tr')
        .allInnerTexts();
      assert.deepEqual(
        table.map((row) => row.split('\t').slice(3, 6).map(Number)),
        [...apiCounts].reverse().map((count) => count.slice(1)),
      );

      const policies = await page
        .getByRole('table', { name: 'Policies attached to the environment' })
        .locator('tbody tr')
        .allInnerTexts();
      assert.equal(policies.length, 1);
      assert.match(policies[0], /^prod-rules\t1\t/);
      await assertInert(HOSTILE_PARTS);
      assert.ok(
        (await page.locator('main details pre').first().textContent())!.includes(
          `# ${HOSTILE_PARTS[0]} ${HOSTILE_PARTS[1]}`,
        ),
        'the policy YAML as text',
      );
      await shot('environment');
      await page.locator('figure.chart').screenshot({ path: join(outputDir, 'environment-chart.png') });

      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 15_000 }),
        page.getByRole('link', { name: 'Audit log (CSV)' }).click(),
      ]);
      const saved = join(configDir, 'auditlog.csv');
      await download.saveAs(saved);
      const csv = readFileSync(saved, 'utf8');
      assert.ok(csv.split('\n').length > 3, 'a header and the started and exited artifacts');
      assert.ok(csv.includes(NEW_IMAGE));

      await page.goto(`${server.url}/acme/environments/staging`);
      await page.getByRole('heading', { name: 'Environment staging' }).waitFor({ timeout: 15_000 });
      // Nothing reported: no chart of nothing, and what runs says so.
      assert.equal(await page.locator('figure.chart').count(), 0);
      assert.match(await page.locator('main').innerText(), /Running now\n+Nothing has been reported yet\./);
    });

    it('shows a snapshot: what runs, each compliance and the rule that failed', async () => {
      await page.goto(`${server.url}/acme/environments/prod`);
      await page.getByRole('link', { name: 'prod#3' }).click();
      await page.getByRole('heading', { name: 'Snapshot prod#3' }).waitFor({ timeout: 15_000 });
      const running = await page
        .getByRole('table', { name: 'Artifacts running in the snapshot' })
        .locator('tbody tr')
        .allInnerTexts();
      const app = running.find((row) => row.startsWith('registry.test/app:1'))!;
      const started = running.find((row) => row.startsWith(NEW_IMAGE))!;
      assert.match(app, /\tCOMPLIANT\t\w+ \(1 → 2\)/);
      assert.match(app, /backend \/ release-1/);
      assert.match(started, /NON-COMPLIANT\tstarted \(0 → 1\)/);
      assert.match(started, /Policy prod-rules \(version 1\), rule provenance: the artifact has no provenance/);
      assert.match(started, /rule attestation sbom \(generic\)/);
      const exited = await page
        .getByRole('table', { name: /stopped/ })
        .locator('tbody tr')
        .allInnerTexts();
      assert.equal(exited.length, 1);
      assert.ok(withoutIsolates(exited[0]).startsWith(STRAY_IMAGE), exited[0]);
      await assertInert([STRAY_IMAGE]);
      await shot('snapshot');

      await page.getByRole('link', { name: 'Compare with the previous snapshot' }).click();
      await page.getByRole('heading', { name: 'Snapshot prod#2 compared with prod#3' }).waitFor({ timeout: 15_000 });
      const section = async (name: string) =>
        (await page.getByRole('table', { name }).locator('tbody tr').allInnerTexts()).map((row) =>
          withoutIsolates(row.split('\n')[0]),
        );
      assert.deepEqual(await section('Artifacts that started running'), [NEW_IMAGE]);
      assert.deepEqual(await section('Artifacts that stopped running'), [STRAY_IMAGE]);
      assert.deepEqual(await section('Artifacts whose instance count changed'), ['registry.test/app:1']);
      await assertInert([STRAY_IMAGE]);
      await shot('comparison');
    });

    it('compares any two snapshots picked in the environment form', async () => {
      await page.goto(`${server.url}/acme/environments/prod`);
      await page.getByLabel('Earlier snapshot').fill('1');
      await page.getByLabel('Later snapshot').fill('3');
      await page.getByRole('button', { name: 'Compare' }).click();
      await page.getByRole('heading', { name: 'Snapshot prod#1 compared with prod#3' }).waitFor({ timeout: 15_000 });
      assert.match(await page.locator('p.counts').innerText(), /^1 started, 1 exited, 1 changed, 0 unchanged/);
    });

    it('has no serious or critical accessibility violations on any page (axe-core)', async () => {
      assert.deepEqual(await seriousViolations(browser, server, 'acme-reader-key-1', PATHS()), []);
    });

    it('refuses every page to a key of another org, telling nothing about it', async () => {
      await page.context().clearCookies();
      await signIn('other-reader-key-1');
      for (const path of PATHS()) {
        const response = await page.goto(`${server.url}${path}`);
        assert.equal(response?.status(), 404, path);
        assert.doesNotMatch(
          await page.locator('main').innerText(),
          /backend|release-1|prod#|COMPLIANT|registry\.test/,
          path,
        );
      }
      await shot('other-org-refused');
    });
  });
});
