// `npm run test:contract`: property-based API testing of the real server with schemathesis, from
// the server's own OpenAPI document. Every operation is called with generated valid and invalid
// input; every answer must be documented, of the documented content type, match its response
// schema, and never be a server error. The run is seeded, so CI sees the same cases each time.
//
// schemathesis comes from the Python package index at a pinned version, into a virtualenv kept
// under test/contract/.venv (installed on first run). The server runs on a free loopback port with
// a temporary data directory, seeded with one of each resource so that generated requests reach
// real records, and is stopped by its pid whatever happens.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listenUrlOf } from '../../shared/readyLine.ts';
import { seedResources, SEEDED } from './seed.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const SCHEMATHESIS = 'schemathesis==4.32.5';
const venv = join(here, '.venv');
const binary = join(venv, 'bin', 'schemathesis');
const KEY = 'contract-admin-key-0123456789';
/** Generated cases per operation and phase: enough to find drift, bounded to minutes in CI. */
const MAX_EXAMPLES = Number(process.env.CONTRACT_MAX_EXAMPLES ?? 40);
const SEED = Number(process.env.CONTRACT_SEED ?? 20261124);

function installSchemathesis() {
  if (existsSync(binary) && spawnSync(binary, ['--version']).stdout?.toString().includes(SCHEMATHESIS.split('==')[1]))
    return;
  console.log(`contract: installing ${SCHEMATHESIS} into ${venv}`);
  for (const [command, args] of [
    ['python3', ['-m', 'venv', venv]],
    [join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', SCHEMATHESIS]],
  ]) {
    const result = spawnSync(command, args, { stdio: 'inherit' });
    if (result.status !== 0)
      throw new Error(`contract: '${command} ${args.join(' ')}' failed (${result.status ?? result.signal})`);
  }
}

/**
 * Starts `cev serve` and resolves with its base URL once it printed its ready line (bounded). The
 * key goes in a 0600 config file, never on the command line where `ps` shows it.
 */
function startServer(scratch) {
  const config = join(scratch, 'serve.json');
  writeFileSync(
    config,
    JSON.stringify({ orgs: [{ name: 'default' }], api_keys: [{ key: KEY, role: 'admin', orgs: ['default'] }] }),
    { mode: 0o600 },
  );
  const args = ['serve', '--host', '127.0.0.1', '--port', '0', '--data', join(scratch, 'data'), '--config', config];
  const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`contract: the server did not get ready in 20 s:\n${output}`)),
      20_000,
    );
    const onData = (chunk) => {
      output += chunk;
      const url = output
        .split('\n')
        .slice(0, -1)
        .map(listenUrlOf)
        .find((found) => found !== undefined);
      if (url !== undefined) {
        clearTimeout(timer);
        resolve({ child, url, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`contract: the server exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/**
 * Checks left out, each for a reason of the reference's:
 * - unsupported_method: a method a path does not serve is an unknown route there, answered with the
 *   JSON 404 of every unknown route (reference §2.21), not 405;
 * - positive_data_acceptance: some rules are the server's own and answered with the reference's exact
 *   message rather than a schema keyword (an empty search name, an empty snapshot reference, a
 *   data_json part that is not JSON, reference §1.2): the request schemas describe the shape of a
 *   request, not every rule behind it. Invalid input must still be refused (negative_data_rejection).
 */
const EXCLUDED_CHECKS = ['unsupported_method', 'positive_data_acceptance'];

function configText(url) {
  const parameters = Object.entries({ 'path.org': 'default', ...SEEDED.parameters })
    .map(([name, value]) => `"${name}" = ${JSON.stringify(value)}`)
    .join('\n');
  return `base-url = "${url}/api/v2"
headers = { Authorization = "Bearer ${KEY}" }
request-timeout = 10.0

[parameters]
${parameters}

[generation]
max-examples = ${MAX_EXAMPLES}

# Warnings are advice about coverage (generated identifiers that name no record answer 404, as they
# must), not findings; with them shown, the closing banner reads "N warnings in Xs", which CI's
# test-count reader takes for a test runner that ran nothing.
[warnings]
enabled = false
`;
}

/**
 * The run's verdict as the plain line CI's test-count reader takes: the generated cases that passed
 * and those that failed, from schemathesis's "Test cases:" summary (a run without one failed).
 */
function closingLine(report, exitStatus) {
  const cases = /Test cases:\s*\n\s*(\d+) generated(.*)/.exec(report);
  const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(cases?.[2] ?? '')?.[1] ?? 0);
  // A failing exit without failed cases (errors, a crash) still counts as one failure.
  const failed = exitStatus === 0 && cases !== null ? count('failed') : Math.max(1, count('failed'));
  return `contract: ${count('passed')} passed, ${failed} failed${count('skipped') ? `, ${count('skipped')} skipped` : ''}`;
}

installSchemathesis();
const scratch = mkdtempSync(join(tmpdir(), 'cev-contract-'));
let server;
let status;
try {
  server = await startServer(scratch);
  await seedResources(server.url, KEY);
  const config = join(scratch, 'schemathesis.toml');
  writeFileSync(config, configText(server.url));
  const run = spawnSync(
    binary,
    [
      '--config-file',
      config,
      'run',
      `${server.url}/api/v2/openapi.json`,
      '--checks',
      'all',
      '--exclude-checks',
      EXCLUDED_CHECKS.join(','),
      '--seed',
      String(SEED),
      '--generation-deterministic',
      '--no-color',
    ],
    {
      cwd: scratch,
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 256 * 1024 * 1024,
      timeout: 15 * 60_000,
    },
  );
  const report = run.stdout?.toString() ?? '';
  process.stdout.write(report);
  status = run.status ?? 1;
  if (run.error) console.error(`contract: schemathesis did not finish: ${run.error.message}`);
  console.log(closingLine(report, status));
  if (/Internal server error|Error: /.test(server.output()))
    console.error(`contract: the server logged errors:\n${server.output()}`);
} finally {
  if (server !== undefined && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => {
      const timer = setTimeout(() => {
        server.child.kill('SIGKILL');
        resolve();
      }, 10_000);
      server.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = status;
