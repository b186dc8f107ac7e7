// The README's quickstart, run as a newcomer would paste it: every `sh` block of the section, in
// order, in one bash (blocks share their variables), with curl, against a fresh server whose data
// directory is `.cev-data` in the working directory, so `cat .cev-data/admin-key` reads the key it
// generated. The one change to the text: the port 8001 becomes the test server's free port.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FlowAttestation, Page } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';

const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md'), 'utf8');

/** The quickstart section: from its heading to the next second-level heading. */
function quickstartSection(text: string): string {
  const start = text.indexOf('\n## Quickstart');
  assert.notEqual(start, -1, 'the README has a "## Quickstart" section');
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
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

describe('README quickstart', () => {
  let workDir: string;
  let server: TestServer;

  before(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'cev-quickstart-'));
    server = await startServer({ dataDir: join(workDir, '.cev-data'), noApiKey: true });
  });

  after(async () => {
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('runs every request as written, each answered with the expected status, and records the journey', async () => {
    const section = quickstartSection(readme);
    const blocks = shellBlocks(section);
    assert.ok(blocks.length >= 7, `the quickstart has its sh blocks (found ${blocks.length})`);
    assert.match(section, /open http:\/\/127\.0\.0\.1:8001\/ and sign in with the key/);
    const script = blocks.join('\n').replaceAll('http://127.0.0.1:8001', server.url);

    const run = await runBash(script, workDir, 60_000);
    assert.equal(run.code, 0, `the quickstart failed:\n${run.stdout}\n${run.stderr}`);

    const requests = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('STATUS '))
      .map((line) => {
        const [, status, method, url] = line.split(' ');
        return `${status} ${method} ${new URL(url).pathname}`;
      });
    const fingerprint = /"full_match":"([0-9a-f]{64})"/.exec(run.stdout)?.[1];
    assert.ok(fingerprint !== undefined, `the search answered the artifact's fingerprint:\n${run.stdout}`);
    assert.deepEqual(requests, [
      '201 PUT /api/v2/flows/default/template_file',
      '201 PUT /api/v2/trails/default/shop',
      '201 POST /api/v2/artifacts/default/shop',
      '201 POST /api/v2/attestations/default/shop/trail/build-1/scan',
      '201 PUT /api/v2/environments/default',
      '200 PUT /api/v2/environments/default/production/report/K8S',
      '200 GET /api/v2/snapshots/default/production',
      '200 GET /api/v2/snapshots/default/production/-1',
      `200 GET /api/v2/search/default/sha/${fingerprint}`,
      '200 GET /api/v2/environments/default/production/auditlog',
    ]);
    assert.equal(fingerprint, createHash('sha256').update('the app, as built\n').digest('hex'));

    // What the journey left behind, read back through the API.
    const attestations = await server.get<Page<FlowAttestation>>('/api/v2/attestations/default/shop');
    assert.equal(attestations.status, 200);
    assert.deepEqual(
      attestations.body.data.map((item) => [item.attestation_name, item.attestation_type]),
      [['scan', 'scan']],
    );
    const evidence = await server.get(
      `/api/v2/attestations/default/shop/trail/build-1/attestation/${attestations.body.data[0].attestation_id}/evidence`,
    );
    assert.equal(evidence.status, 200);
    assert.equal(evidence.text, 'coverage 91%, no new issues\n', 'the evidence file is kept as sent');
    const csv = readFileSync(join(workDir, 'quickstart', 'production-auditlog.csv'), 'utf8');
    assert.match(csv, new RegExp(`^[^,]+,[^,]+,started,production,1,shop:1\\.0,${fingerprint},shop,build-1,`, 'm'));
    assert.match(run.stdout, /started,production,1,shop:1\.0/, 'the audit log is shown');
  });
});
