// The README's quickstart, run as a newcomer would paste it: every `sh` block of the section, in
// order, in one bash (blocks share their variables), with curl, against a fresh server whose data
// directory is `.cev-data` in the working directory, so `cat .cev-data/admin-key` reads the key it
// generated. The one change to the text: the port 8001 becomes the test server's free port. The
// story it tells is then checked where a person reads it: production COMPLIANT after the first
// build, NON-COMPLIANT after the second, whose scan failed, on the API, in the audit log's CSV, and
// on every web page the section's closing table names, in Chromium, saying the words the table
// quotes. Screenshots land in test-output/quickstart/.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium } from '../support/browser.ts';
import type { FlowAttestation, Page, SearchResult, Snapshot, SnapshotSummary } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const outputDir = join(root, 'test-output', 'quickstart');

/** The quickstart section: from its heading to the next second-level heading. */
function quickstartSection(text: string): string {
  const start = text.indexOf('\n## Quickstart');
  assert.notEqual(start, -1, 'the README has a "## Quickstart" section');
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The pages the section's closing table names: each link's text, path, and the words quoted beside it. */
function pagesOfTable(section: string): { page: string; path: string; says: string[] }[] {
  return [...section.matchAll(/^\| \[([^\]]+)\]\(http:\/\/127\.0\.0\.1:8001(\/[^)]*)\) \| (.+) \|$/gm)].map(
    ([, page, path, says]) => ({ page, path, says: [...says.matchAll(/"([^"]+)"/g)].map((quoted) => quoted[1]) }),
  );
}

function shellBlocks(section: string): string[] {
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
}

/**
 * Watches each curl without changing what it does: a function, loaded through BASH_ENV, runs the
 * real curl with the README's arguments and adds a write-out that keeps the README's trailing
 * newline on stdout and reports the status, method and URL on stderr.
 */
const CURL_WATCH = `curl() { command curl "$@" --write-out '\\n%{stderr}STATUS %{http_code} %{method} %{url_effective}\\n'; }\n`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runBash(script: string, cwd: string, timeoutMs: number): Promise<Run> {
  writeFileSync(join(cwd, 'curl-watch.sh'), CURL_WATCH);
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    env: { ...process.env, BASH_ENV: join(cwd, 'curl-watch.sh') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the quickstart did not finish within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('README quickstart', function () {
  this.timeout(120_000);
  let workDir: string;
  let server: TestServer;
  let run: Run;
  const section = quickstartSection(readme);
  const fingerprintOf = (content: string) => createHash('sha256').update(content).digest('hex');
  const first = fingerprintOf('the app, as built\n');
  const second = fingerprintOf('the app, built again\n');

  before(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'cev-quickstart-'));
    server = await startServer({ dataDir: join(workDir, '.cev-data'), noApiKey: true });
    const blocks = shellBlocks(section);
    assert.ok(blocks.length >= 9, `the quickstart has its sh blocks (found ${blocks.length})`);
    run = await runBash(blocks.join('\n').replaceAll('http://127.0.0.1:8001', server.url), workDir, 60_000);
  });

  after(async () => {
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('runs every request as written, each answered with the expected status', () => {
    assert.equal(run.code, 0, `the quickstart failed:\n${run.stdout}\n${run.stderr}`);
    const requests = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('STATUS '))
      .map((line) => {
        const [, status, method, url] = line.split(' ');
        return `${status} ${method} ${new URL(url).pathname}`;
      });
    assert.deepEqual(requests, [
      '201 PUT /api/v2/flows/default/template_file',
      '201 PUT /api/v2/trails/default/shop',
      '201 POST /api/v2/artifacts/default/shop',
      '201 POST /api/v2/attestations/default/shop/trail/build-1/scan',
      '201 PUT /api/v2/environments/default',
      '201 PUT /api/v2/policies/default',
      '200 POST /api/v2/environments/default/production/policies',
      '200 PUT /api/v2/environments/default/production/report/K8S',
      '200 GET /api/v2/snapshots/default/production/-1',
      '201 PUT /api/v2/trails/default/shop',
      '201 POST /api/v2/artifacts/default/shop',
      '201 POST /api/v2/attestations/default/shop/trail/build-2/scan',
      '200 PUT /api/v2/environments/default/production/report/K8S',
      '200 GET /api/v2/snapshots/default/production/-1',
      '200 GET /api/v2/snapshots/default/production',
      `200 GET /api/v2/search/default/sha/${second}`,
      '200 GET /api/v2/environments/default/production/auditlog',
    ]);
    assert.match(run.stdout, /"compliant":true,"artifact_compliance_count":\{"true":1,"false":0,"null":0\}/);
    assert.match(run.stdout, /"compliant":false,"artifact_compliance_count":\{"true":0,"false":1,"null":0\}/);
    assert.match(run.stdout, /"compliance_state":"NON-COMPLIANT"/);
    assert.match(run.stdout, /started,production,2,shop:2\.0/, 'the audit log is shown');
  });

  it('leaves on the API production COMPLIANT after the first build and NON-COMPLIANT after the second, with its reason', async () => {
    const attestations = await server.get<Page<FlowAttestation>>('/api/v2/attestations/default/shop');
    assert.deepEqual(
      attestations.body.data.map((item) => [item.trail_name, item.attestation_name, item.is_compliant]).sort(),
      [
        ['build-1', 'scan', true],
        ['build-2', 'scan', false],
      ],
    );
    const passing = attestations.body.data.find((item) => item.trail_name === 'build-1')!;
    const evidence = await server.get(
      `/api/v2/attestations/default/shop/trail/build-1/attestation/${passing.attestation_id}/evidence`,
    );
    assert.equal(evidence.text, 'coverage 91%, no new issues\n', 'the evidence file is kept as sent');

    const snapshots = await server.get<SnapshotSummary[]>('/api/v2/snapshots/default/production');
    assert.deepEqual(
      snapshots.body.map((summary) => [summary.index, summary.compliant]),
      [
        [2, false],
        [1, true],
      ],
    );
    const compliant = (await server.get<Snapshot>('/api/v2/snapshots/default/production/1')).body;
    assert.deepEqual(compliant.artifact_compliance_count, { true: 1, false: 0, null: 0 });
    assert.deepEqual(
      compliant.applied_policies?.map((policy) => policy.name),
      ['production-rules'],
    );
    const latest = (await server.get<Snapshot>('/api/v2/snapshots/default/production/-1')).body;
    assert.equal(latest.compliant, false);
    assert.deepEqual(latest.artifact_compliance_count, { true: 0, false: 1, null: 0 });
    assert.deepEqual(latest.applied_policies?.[0].failing_artifacts, [second]);
    const running = latest.artifacts.find((artifact) => artifact.fingerprint === second)!;
    assert.deepEqual(running.reasons_for_incompliance, [
      "Policy 'production-rules' (version 1): attestation 'scan' of type 'scan' is not compliant in trail 'build-2' of flow 'shop'",
    ]);
    assert.ok(
      section.replace(/\s+/g, ' ').includes(running.reasons_for_incompliance[0]),
      'the section quotes the reason',
    );

    const search = (await server.get<SearchResult>(`/api/v2/search/default/sha/${second.slice(0, 12)}`)).body;
    assert.deepEqual(
      search.artifacts.map((artifact) => [
        artifact.name,
        artifact.trail,
        artifact.compliance_state,
        artifact.running_in,
      ]),
      [['shop:2.0', 'build-2', 'NON-COMPLIANT', ['production']]],
    );
  });

  it('writes the audit log CSV the section shows: started COMPLIANT, then started NON-COMPLIANT and exited', () => {
    const rows = parseCsv<Record<string, string>>(
      readFileSync(join(workDir, 'quickstart', 'production-auditlog.csv'), 'utf8'),
      { columns: true },
    );
    assert.deepEqual(
      rows.map((row) => [
        row.event_type,
        row.snapshot_index,
        row.artifact_name,
        row.fingerprint,
        row.trail_names,
        row.snapshot_compliance,
        row.artifact_compliance,
      ]),
      [
        ['started', '1', 'shop:1.0', first, 'build-1', 'COMPLIANT', 'COMPLIANT'],
        ['started', '2', 'shop:2.0', second, 'build-2', 'NON-COMPLIANT', 'NON-COMPLIANT'],
        ['exited', '2', 'shop:1.0', first, 'build-1', 'NON-COMPLIANT', 'COMPLIANT'],
      ],
    );
  });

  describe('every page the section names, in Chromium', function () {
    let browser: Browser;
    before(async function () {
      if (!hasChromium()) this.skip();
      browser = await launchChromium();
      // Only this run's pictures: the pages' numbers follow the table's rows.
      rmSync(outputDir, { recursive: true, force: true });
      mkdirSync(outputDir, { recursive: true });
    });
    after(async () => {
      await browser?.close();
    });

    it('says what the table says, signed in with the key the section reads', async () => {
      assert.match(section, /Open http:\/\/127\.0\.0\.1:8001\/ and sign in with the key/);
      const pages = pagesOfTable(section);
      assert.deepEqual(
        pages.map(({ page }) => page),
        [
          "the org's home",
          'the environments',
          'environment production',
          'snapshot production#2',
          'flow shop',
          'trail build-2',
          'trail build-1',
          'artifact shop:2.0',
          'policy production-rules',
          'search for 331789f7',
        ],
      );
      assert.ok(pages.find(({ page }) => page === 'artifact shop:2.0')!.path.endsWith(second));
      assert.ok(second.startsWith(pages.find(({ page }) => page === 'search for 331789f7')!.path.split('q=')[1]));
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      await page.goto(`${server.url}/`);
      await page.getByLabel('API key').fill(readFileSync(join(workDir, '.cev-data', 'admin-key'), 'utf8').trim());
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Your organizations' }).waitFor({ timeout: 15_000 });
      for (const [index, { page: name, path, says }] of pages.entries()) {
        assert.ok(says.length > 0, `${name}: the table quotes what it says`);
        const answer = await page.goto(`${server.url}${path}`);
        assert.equal(answer?.status(), 200, name);
        const text = await page.locator('body').innerText();
        for (const words of says) assert.ok(text.includes(words), `${name} (${path}) says "${words}":\n${text}`);
        await page.screenshot({
          path: join(outputDir, `${index + 1}-${name.replace(/[^a-z0-9]+/gi, '-')}.png`),
          fullPage: true,
        });
      }
      // The README's picture (docs/screenshot.png; CONTRIBUTING.md says how it is renewed): the
      // environment at the end of the story, in the first screenful of its page, sharp on dense screens.
      const pictured = await browser.newContext({
        viewport: { width: 1000, height: 820 },
        deviceScaleFactor: 2,
        storageState: await page.context().storageState(),
      });
      const picture = await pictured.newPage();
      await picture.goto(`${server.url}/default/environments/production`);
      await picture.getByRole('heading', { name: 'Environment production' }).waitFor({ timeout: 15_000 });
      await picture.screenshot({ path: join(outputDir, 'readme-screenshot.png') });
      await pictured.close();
      await page.close();
    });
  });
});
