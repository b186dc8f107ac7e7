// The start contract of issue 3: flags, ready line, /ready, keys, config, lock, exit codes.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { waitFor } from '../support/wait.ts';
import type { Attestation, ServiceAccount } from './answers.ts';
import { ADMIN_KEY, runServerCommand, startServer, tempDataDir, type TestServer } from './harness.ts';
import { beginTrail, createFlow } from './fixtures.ts';

function assertOneLineError(result: { code: number | null; stderr: string; stdout: string }, pattern: RegExp): void {
  assert.equal(result.code, 2, `exit code 2 expected:\n${result.stderr}`);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line expected:\n${result.stderr}`);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
}

describe('cev serve: start contract', () => {
  it('prints a ready line with the URL, answers GET /ready with plain OK, stops on SIGTERM and releases the lock', async () => {
    const server = await startServer({ process: true });
    assert.match(server.output(), /Compliance Evidence API listening on http:\/\/127\.0\.0\.1:\d+/);
    const ready = await server.get('/ready', { key: null });
    assert.equal(ready.status, 200);
    assert.equal(ready.text, 'OK');
    assert.match(String(ready.headers['content-type']), /^text\/plain/);
    assert.ok(existsSync(join(server.dataDir, 'server.lock')));
    assert.equal(await server.stop({ keepData: true }), 0);
    assert.ok(!existsSync(join(server.dataDir, 'server.lock')));
    assert.ok(existsSync(join(server.dataDir, 'cev.sqlite')));
    rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('finishes a request in flight when SIGTERM arrives, then exits 0', async () => {
    const server = await startServer({ process: true, args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'flow');
    await beginTrail(server, 'acme', 'flow', 'trail');
    const boundary = 'inflightboundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="data_json"\r\n\r\n`;
    const tail = `${JSON.stringify({ attestation_name: 'late' })}\r\n--${boundary}--\r\n`;
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const headers = [
      'POST /api/v2/attestations/acme/flow/trail/trail/generic HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${server.key}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${Buffer.byteLength(head) + Buffer.byteLength(tail)}`,
      'Connection: close',
    ].join('\r\n');
    await new Promise<void>((resolve) => socket.write(`${headers}\r\n\r\n${head}`, () => resolve()));
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
    // Answered on a second connection opened after the first one's head was sent: the server has
    // taken the first request and is waiting for the rest of its body.
    assert.equal((await server.get('/ready', { key: null })).text, 'OK');
    server.child.kill('SIGTERM');
    socket.end(tail);
    await closed;
    assert.match(answer, /^HTTP\/1\.1 201 /);
    assert.ok(answer.endsWith('"OK"'), answer);
    assert.equal(await exited, 0);
    const again = await startServer({ process: true, dataDir: server.dataDir, args: ['--org', 'acme'] });
    try {
      assert.equal((await again.get<Attestation[]>('/api/v2/attestations/acme/flow/trail/trail/late')).body.length, 1);
    } finally {
      await again.stop();
    }
  });

  it('dist/api-server.js takes the same flags', async () => {
    const server = await startServer({ process: true, entry: 'api-server' });
    try {
      assert.equal((await server.get('/api/v2/service-accounts/default')).status, 200);
    } finally {
      await server.stop();
    }
  });

  it('generates an admin key on first start, prints it once, and keeps it in the data directory', async () => {
    const first = await startServer({ process: true, noApiKey: true });
    const dataDir = first.dataDir;
    try {
      assert.match(first.output(), /shown only this once/);
      assert.ok(first.key.length >= 32);
      assert.equal(readFileSync(join(dataDir, 'admin-key'), 'utf8').trim(), first.key);
      assert.equal((await first.get('/api/v2/service-accounts/default')).status, 200);
      assert.equal((await first.get('/api/v2/service-accounts/default', { key: ADMIN_KEY })).status, 401);
    } finally {
      await first.stop({ keepData: true });
    }
    const second = await startServer({ process: true, noApiKey: true, dataDir });
    try {
      assert.doesNotMatch(second.output(), /shown only this once/);
      assert.doesNotMatch(second.output(), new RegExp(first.key.replace(/[-]/g, '\\-')));
      assert.equal((await second.get('/api/v2/service-accounts/default', { key: first.key })).status, 200);
    } finally {
      await second.stop();
    }
  });

  it('refuses a second server on the same data directory with one line and exit code 2', async () => {
    const server = await startServer({ process: true });
    try {
      const second = await runServerCommand(['--port', '0', '--data', server.dataDir]);
      assertOneLineError(second, /another server \(pid \d+\) is already using the data directory/);
      assert.equal((await server.get('/ready', { key: null })).status, 200);
    } finally {
      await server.stop();
    }
  });

  it('takes over the lock of a killed server', async () => {
    const server = await startServer({ process: true });
    await server.kill();
    const again = await startServer({ process: true, dataDir: server.dataDir });
    await again.stop();
  });

  for (const [label, args, pattern] of [
    ['an unknown flag', ['--nope'], /Unknown option '--nope'/],
    ['a bad port', ['--port', 'eighty'], /--port must be an integer from 0 to 65535, not 'eighty'/],
    ['a port out of range', ['--port', '70000'], /--port must be an integer/],
    ['--data with --memory', ['--memory', '--data', '/tmp/x'], /--data and --memory cannot be used together/],
    ['a bad org name', ['--org', 'bad org'], /--org: org name "bad org" must match/],
    ['a bad public URL', ['--public-url', 'nowhere'], /--public-url must be an absolute http\(s\) URL/],
    ['a missing config file', ['--config', '/nonexistent/cev.yaml'], /--config \/nonexistent\/cev.yaml: ENOENT/],
    ['a short api key', ['--api-key', 'short'], /--api-key must be at least 8 characters/],
  ] as const) {
    it(`exits 2 with one line for ${label}`, async () => {
      assertOneLineError(await runServerCommand([...args]), pattern);
    });
  }

  it('exits 2 with one line for an unusable data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cev-file-'));
    const file = join(dir, 'not-a-dir');
    writeFileSync(file, 'x');
    try {
      assertOneLineError(
        await runServerCommand(['--port', '0', '--data', file]),
        /the data directory .* is not usable/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 with one line for a config with an unknown role', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cev-config-'));
    writeFileSync(join(dir, 'cev.yaml'), 'api_keys:\n  - key: abcdefghij\n    orgs: [acme]\n    role: boss\n');
    try {
      assertOneLineError(
        await runServerCommand(['--port', '0', '--memory', '--config', join(dir, 'cev.yaml')]),
        /api_keys\[0\]\.role must be one of/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates the orgs of --org and --config, with per-key orgs and roles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cev-config-'));
    const config = join(dir, 'cev.yaml');
    writeFileSync(
      config,
      [
        'orgs:',
        '  - name: acme',
        '    features: {controls: false}',
        '  - name: acme-shared',
        'api_keys:',
        '  - key: reader-key-acme',
        '    orgs: [acme]',
        '    role: reader',
        '  - key: member-key-both',
        '    orgs: [acme, acme-shared]',
        '    role: member',
      ].join('\n'),
    );
    let server: TestServer | undefined;
    try {
      server = await startServer({ process: true, memory: true, args: ['--org', 'other', '--config', config] });
      assert.match(server.output(), /orgs: acme, acme-shared, other/);
      assert.equal((await server.get('/api/v2/service-accounts/other')).status, 200);
      assert.equal((await server.get('/api/v2/service-accounts/acme-shared', { key: 'member-key-both' })).status, 200);
      const crossOrg = await server.get('/api/v2/service-accounts/other', { key: 'member-key-both' });
      assert.equal(crossOrg.status, 403);
      assert.deepEqual(crossOrg.body, { message: "You don't have permission to access this resource" });
      const reader = await server.get('/api/v2/service-accounts/acme', { key: 'reader-key-acme' });
      assert.equal(reader.status, 403);
    } finally {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs with --memory, keeping nothing once stopped', async () => {
    const server = await startServer({ process: true, memory: true });
    try {
      assert.match(server.output(), /data: in memory/);
      const created = await server.json('POST', '/api/v2/service-accounts/default', {
        name: 'ci',
        privilege: 'member',
      });
      assert.equal(created.status, 201);
      assert.equal((await server.get<ServiceAccount[]>('/api/v2/service-accounts/default')).body.length, 1);
    } finally {
      await server.stop();
    }
    const again = await startServer({ process: true, memory: true });
    try {
      assert.deepEqual((await again.get('/api/v2/service-accounts/default')).body, []);
    } finally {
      await again.stop();
    }
  });
});

/** A port another process listens on: a plain TCP listener on 127.0.0.1, closed by `close`. */
async function busyPort(): Promise<{ port: number; close(): Promise<void> }> {
  const listener: Server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return {
    port: (listener.address() as AddressInfo).port,
    close: () => new Promise((resolve) => listener.close(() => resolve())),
  };
}

/** A free port: one the system picked and gave back. */
async function freePort(): Promise<number> {
  const probe = await busyPort();
  await probe.close();
  return probe.port;
}

/**
 * Runs a command (in its own process group) until it prints the ready line or exits, and answers
 * its output, exit code (undefined while it runs) and stop(): SIGTERM to the group, waiting until
 * its last process has gone.
 */
async function launch(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, {
    cwd: join(import.meta.dirname, '..', '..'),
    env: { ...process.env, CEV_API_KEY: undefined, PORT: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  let exitCode: number | null | undefined;
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.once('exit', (code) => (exitCode = code));
  const groupAlive = (): boolean => {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  await waitFor(
    () => exitCode !== undefined || /listening on http/.test(output),
    `${command} ${args.join(' ')} ready or exited (output: ${output})`,
    90_000,
  );
  return {
    output: () => output,
    exitCode: () => exitCode,
    url: () => /listening on (http:\/\/\S+)/.exec(output)?.[1],
    async stop() {
      if (groupAlive()) process.kill(-child.pid!, 'SIGTERM');
      await waitFor(() => !groupAlive(), `the end of ${command} ${args.join(' ')}`, 15_000);
    },
  };
}

const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

describe('cev serve: the port', function () {
  this.timeout(120_000);

  it('a port in use: one line naming it and how to choose another, exit 2, and no admin key generated; the start that serves shows it', async () => {
    const busy = await busyPort();
    const dataDir = tempDataDir();
    try {
      const refused = await runServerCommand(['--port', String(busy.port), '--data', dataDir]);
      assertOneLineError(
        refused,
        new RegExp(
          `^cev serve: cannot listen on 127\\.0\\.0\\.1:${busy.port}: another process is listening there \\(EADDRINUSE\\)\\. ` +
            `Start on another port with --port ${busy.port + 1} \\(--port 0 picks a free one\\)$`,
        ),
      );
      assert.equal(refused.stdout, '', 'nothing printed before the refusal: no key "shown only this once"');
      assert.ok(!existsSync(join(dataDir, 'admin-key')), 'no key kept for a server that never served');
      const served = await startServer({ process: true, dataDir, noApiKey: true });
      try {
        assert.match(
          served.output(),
          /Generated an admin API key \(kept in .*; shown only this once\): [0-9a-f]{64}\n/,
        );
        assert.equal(readFileSync(join(dataDir, 'admin-key'), 'utf8').trim(), served.key);
        assert.equal((await served.get('/api/v2/service-accounts/default')).status, 200);
      } finally {
        await served.stop();
      }
    } finally {
      await busy.close();
    }
  });

  it('honours PORT when no --port is given, says so when that port is in use, and --port wins over it', async () => {
    const port = await freePort();
    const fromEnv = await launch(process.execPath, [cli, 'serve', '--memory'], { PORT: String(port) });
    try {
      assert.equal(fromEnv.url(), `http://127.0.0.1:${port}`, fromEnv.output());
      assert.equal(await (await fetch(`${fromEnv.url()}/ready`)).text(), 'OK');
      const busy = await launch(process.execPath, [cli, 'serve', '--memory'], { PORT: String(port) });
      assert.equal(busy.exitCode(), 2);
      assert.match(
        busy.output(),
        new RegExp(
          `^cev serve: cannot listen on 127\\.0\\.0\\.1:${port} \\(the port \\$PORT sets\\): another process is listening there \\(EADDRINUSE\\)\\. Start on another port with --port ${port + 1}`,
        ),
      );
      const flagWins = await launch(process.execPath, [cli, 'serve', '--memory', '--port', '0'], {
        PORT: String(port),
      });
      try {
        assert.notEqual(flagWins.url(), undefined, flagWins.output());
        assert.notEqual(flagWins.url(), fromEnv.url());
      } finally {
        await flagWins.stop();
      }
    } finally {
      await fromEnv.stop();
    }
    const badPort = await launch(process.execPath, [cli, 'serve', '--memory'], { PORT: 'eighty' });
    assert.equal(badPort.exitCode(), 2);
    assert.equal(badPort.output(), "cev serve: PORT must be an integer from 0 to 65535, not 'eighty'\n");
  });

  it('`npm start -- --port N` serves on N, and on a port in use says `npm start -- --port N+1`', async () => {
    const port = await freePort();
    const dataDir = tempDataDir();
    const started = await launch('npm', ['start', '--', '--port', String(port), '--data', dataDir], {});
    try {
      assert.equal(started.url(), `http://127.0.0.1:${port}`, started.output());
      const busy = await launch('npm', ['start', '--', '--port', String(port), '--memory'], {});
      assert.notEqual(busy.exitCode(), 0);
      assert.match(
        busy.output(),
        new RegExp(
          `^cev serve: cannot listen on 127\\.0\\.0\\.1:${port}: .*Start on another port with npm start -- --port ${port + 1} \\(--port 0 picks a free one\\)$`,
          'm',
        ),
      );
    } finally {
      await started.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
