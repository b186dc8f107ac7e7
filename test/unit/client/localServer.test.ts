// The extension's way of running the local server, against the real bundle (npm test builds it).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../../../shared/apiClient/client.ts';
import { ApiError } from '../../../shared/apiClient/errors.ts';
import { startLocalServer, type RunningServer } from '../../../client/localServer/process.ts';
import { listenUrlOf, readyLine } from '../../../shared/readyLine.ts';

const script = fileURLToPath(new URL('../../../dist/api-server.js', import.meta.url));
// Starts with '-', as 1 in 64 generated admin keys do: it must not read as an option.
const apiKey = '-client-test-admin-key-42';

describe('local server process', function () {
  let dataDir: string;
  let server: RunningServer | undefined;
  const output: string[] = [];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cev-client-'));
    server = await startLocalServer({
      nodePath: process.execPath,
      script,
      dataDir,
      org: 'acme',
      apiKey,
      onOutput: (line) => output.push(line),
    });
  });

  after(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads the listen URL from the ready line only', () => {
    assert.equal(
      listenUrlOf(readyLine('http://127.0.0.1:40123', 'orgs: acme; data: /tmp/x')),
      'http://127.0.0.1:40123',
    );
    assert.equal(listenUrlOf('connecting to http://127.0.0.1:1'), undefined);
    const printed = output.find((line) => listenUrlOf(line) !== undefined);
    assert.equal(printed !== undefined && listenUrlOf(printed), server!.url, 'the line the server printed');
  });

  it('starts on a free loopback port and answers the readiness probe', async () => {
    assert.match(server!.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(server!.url).port, '0');
    const api = new ApiClient({ baseUrl: `${server!.url}/api/v2`, org: 'acme', token: () => apiKey });
    assert.equal(await api.isReady(), true);
  });

  it('keeps the admin key off its command line, which every local user can read', async () => {
    const commandLine = readFileSync(`/proc/${server!.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(
      commandLine.some((arg) => arg.endsWith('api-server.js')),
      commandLine.join(' '),
    );
    assert.ok(!commandLine.some((arg) => arg.includes(apiKey)), commandLine.join(' '));
    const api = new ApiClient({ baseUrl: `${server!.url}/api/v2`, org: 'acme', token: () => apiKey });
    assert.deepEqual(await api.listFlows(), [], 'the key given through the environment is the admin key');
  });

  it('never writes the admin key to its output', () => {
    assert.ok(output.length > 0);
    assert.ok(!output.join('\n').includes(apiKey));
  });

  it('explains why a second server on the same data cannot start', async () => {
    await assert.rejects(
      startLocalServer({ nodePath: process.execPath, script, dataDir, org: 'acme', apiKey, onOutput: () => {} }),
      (error: Error) => /exited \(\d+\) before it was ready: .+/.test(error.message),
    );
  });

  it('stops by SIGTERM and the port no longer answers', async () => {
    const api = new ApiClient({ baseUrl: `${server!.url}/api/v2`, org: 'acme', token: () => apiKey, timeoutMs: 2000 });
    await server!.stop();
    assert.ok(['number', 'string'].includes(typeof (await server!.exited)));
    server = undefined;
    assert.equal(await api.isReady(), false);
    await assert.rejects(api.listFlows(), (error: ApiError) => error.unreachable && /Cannot reach/.test(error.message));
  });
});
