// `cev` by its name, as a user gets it: from the package `npm pack` makes, installed globally into
// a prefix of its own; from the repository's folder; and through `npx cev` in the repository. Its
// help and `cev validate` run on the system's older Node (Node 20 here), and `cev serve` there
// says in one line which Node it needs and the command that serves instead, without a stack trace.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../support/wait.ts';

const root = join(import.meta.dirname, '..', '..');
const cliScript = join(root, 'dist', 'cli.js');
/** The Node the server needs: the one the repository pins for its scripts (the `node` devDependency). */
const SERVE_NODE_MAJOR = Number(
  /\d+/.exec(
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: { node: string } })
      .devDependencies.node,
  )?.[0],
);

/** The first `node` on the PATH outside node_modules/.bin: the system's Node, not the one the repository pins. */
function systemNode(): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && !dir.includes('node_modules'))
    .map((dir) => join(dir, 'node'))
    .find((candidate) => existsSync(candidate));
}

function majorOf(node: string): number {
  return Number(/^v(\d+)/.exec(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout)?.[1]);
}

/** A PATH whose `node` is `nodeDir`'s, then the system's folders (no node_modules/.bin). */
function pathWith(...dirs: string[]): string {
  const system = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '' && !dir.includes('node_modules'));
  return [...dirs, ...system].join(delimiter);
}

function run(command: string, args: string[], options: { cwd?: string; path?: string; env?: NodeJS.ProcessEnv } = {}) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? root,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ...options.env, PATH: options.path ?? process.env.PATH },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const ADMIN_KEY = 'by-name-admin-key-0123456789';

/**
 * Runs a command that serves until its ready line, calls `use` with the URL, then stops it with
 * SIGTERM to its whole process group (npx runs the server as its child) and waits until every
 * process of the group is gone. The server exits 0 on SIGTERM: when it is the command itself, its
 * exit code is checked.
 */
async function serving(
  command: string,
  args: string[],
  options: { path: string; cwd: string; env?: NodeJS.ProcessEnv },
  use: (url: string) => Promise<void>,
): Promise<void> {
  const server = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PATH: options.path, CEV_API_KEY: ADMIN_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
  try {
    const url = await waitFor(
      () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1],
      `the ready line of ${command} ${args.join(' ')} (output so far: ${output})`,
      30_000,
    );
    await use(url);
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
    // Generous: the machine is shared, and a loaded one took over 15 s to end npx and the server.
    await waitFor(() => !groupAlive(server.pid!), `the end of every process of ${command} ${args.join(' ')}`, 60_000);
  }
  const code = await exited;
  if (command === 'cev') assert.equal(code, 0, output);
}

/** Whether any process of the group `pgid` still runs. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const BROKEN_TEMPLATE =
  'version: 1\ntrail:\n  artifacts:\n    - name: app\n      attestations:\n        - type: scan\n';
const GOOD_TEMPLATE =
  'version: 1\ntrail:\n  artifacts:\n    - name: app\n      attestations:\n        - name: scan\n          type: scan\n';

describe('cev by its name', function () {
  this.timeout(180_000);
  let work: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'cev-by-name-'));
    writeFileSync(join(work, 'good-flow-template.yml'), GOOD_TEMPLATE);
    writeFileSync(join(work, 'broken-flow-template.yml'), BROKEN_TEMPLATE);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('dist/cli.js starts with #!/usr/bin/env node and is executable', () => {
    assert.ok(readFileSync(cliScript, 'utf8').startsWith('#!/usr/bin/env node\n'));
    const direct = run(cliScript, ['--version']);
    assert.equal(direct.code, 0, direct.stderr);
  });

  it('npm pack, then a global install into a fresh prefix: `cev` runs by its name and serves from the package alone', async () => {
    const packed = run('npm', ['pack', '--pack-destination', work, '--silent']);
    assert.equal(packed.code, 0, packed.stderr);
    const tarball = join(work, packed.stdout.trim().split('\n').at(-1)!);
    const prefix = join(work, 'prefix');
    const installed = run('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball]);
    assert.equal(installed.code, 0, installed.stderr);
    assert.deepEqual(
      readdirSync(join(prefix, 'lib', 'node_modules')),
      ['compliance-evidence'],
      'the package installs alone: everything it runs is bundled',
    );
    const path = pathWith(join(prefix, 'bin'), dirname(process.execPath));
    const help = run('cev', ['--help'], { path, cwd: work });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^cev \d+\.\d+\.\d+: /);
    const checked = run('cev', ['validate', 'good-flow-template.yml'], { path, cwd: work });
    assert.equal(checked.code, 0, checked.stderr);
    // The SARIF log links each rule to its row of the page of codes the package carries.
    const sarif = run('cev', ['validate', '--format', 'sarif', 'broken-flow-template.yml'], { path, cwd: work });
    assert.equal(sarif.code, 1, sarif.stderr);
    const log = JSON.parse(sarif.stdout) as { runs: { tool: { driver: { rules: { helpUri: string }[] } } }[] };
    const helpUri = new URL(log.runs[0].tool.driver.rules[0].helpUri);
    assert.ok(fileURLToPath(helpUri).startsWith(join(prefix, 'lib', 'node_modules', 'compliance-evidence')));
    assert.match(readFileSync(fileURLToPath(helpUri), 'utf8'), new RegExp(`<a id="${helpUri.hash.slice(1)}"></a>`));

    // Serving needs what the package carries beside cli.js: the evaluation threads' script reads
    // every uploaded template, and the API reference's files.
    await serving('cev', ['serve', '--port', '0', '--memory'], { path, cwd: work }, async (url) => {
      const form = new FormData();
      form.set('data_json', JSON.stringify({ name: 'by-name', description: 'installed' }));
      form.set('template_file', new Blob([GOOD_TEMPLATE]), 'flow-template.yml');
      const created = await fetch(`${url}/api/v2/flows/default/template_file`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
        body: form,
      });
      assert.equal(created.status, 201, await created.text());
      assert.equal((await fetch(`${url}/api/v2/doc/static/swagger-ui.css`)).status, 200);
    });
  });

  it('a global install of the repository folder links `cev` to its dist/cli.js', () => {
    const prefix = join(work, 'folder-prefix');
    const installed = run('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', root]);
    assert.equal(installed.code, 0, installed.stderr);
    const version = run('cev', ['--version'], { path: pathWith(join(prefix, 'bin')), cwd: work });
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  it('`npx cev` in the repository runs its own bin, and serves on the Node the repository pins', async () => {
    // A fresh npm cache, as on a new machine: npx links the repository's folder, it fetches nothing.
    const env = { npm_config_cache: join(work, 'npm-cache'), npm_config_offline: 'true' };
    const path = pathWith();
    const help = run('npx', ['cev', 'help', 'validate'], { path, env });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage:\n {2}cev validate /m);
    await serving('npx', ['cev', 'serve', '--port', '0', '--memory'], { path, cwd: root, env }, async (url) => {
      assert.equal(await (await fetch(`${url}/ready`)).text(), 'OK');
    });
  });

  describe('on the system Node older than the server needs', () => {
    let node: string;
    before(function () {
      const found = systemNode();
      assert.ok(found, 'a system Node on the PATH');
      if (majorOf(found) >= SERVE_NODE_MAJOR) this.skip();
      node = found;
    });

    it('`cev --help` and `cev help serve` print the help', () => {
      const help = run(node, [cliScript, '--help']);
      assert.equal(help.code, 0, help.stderr);
      assert.equal(help.stderr, '');
      assert.match(help.stdout, /^Commands:$/m);
      const serve = run(node, [cliScript, 'help', 'serve']);
      assert.equal(serve.code, 0, serve.stderr);
      assert.match(serve.stdout, /--port <number>/);
    });

    it('`cev validate` checks files: 0 when clean, 1 with the findings', () => {
      const clean = run(node, [cliScript, 'validate', join(work, 'good-flow-template.yml')]);
      assert.equal(clean.code, 0, clean.stderr);
      const broken = run(node, [cliScript, 'validate', join(work, 'broken-flow-template.yml')]);
      assert.equal(broken.code, 1, broken.stderr);
      assert.match(broken.stdout, /broken-flow-template\.yml:\d+:\d+: error /);
      assert.doesNotMatch(broken.stdout + broken.stderr, /\n\s+at /);
    });

    it('`cev` by its name under that Node runs its help', () => {
      const help = run(cliScript, ['--help'], { path: pathWith(dirname(node)) });
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /^Commands:$/m);
    });

    it('`cev serve` says in one line which Node it needs and the command that serves, and exits 2', () => {
      const serve = run(node, [cliScript, 'serve', '--port', '0', '--org', 'my org']);
      assert.equal(serve.code, 2);
      assert.equal(serve.stdout, '');
      const lines = serve.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, serve.stderr);
      const version = run(node, ['-p', 'process.versions.node']).stdout.trim();
      assert.equal(
        lines[0],
        `cev serve: needs Node ${SERVE_NODE_MAJOR} or newer (its storage is the built-in node:sqlite); ` +
          `this is Node ${version}. ` +
          `Run instead: npx -y node@${SERVE_NODE_MAJOR} ${cliScript} serve --port 0 --org 'my org'`,
      );
    });
  });
});
