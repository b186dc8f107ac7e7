// What `cev serve` (and so `npm start`) prints after its ready line: where the web UI, the API
// reference and the quickstart are, and how to point the VS Code extension at this server. The
// ready line stays the first line with the URL, which the harness and the extension look for.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listenUrlOf } from '../../shared/readyLine.ts';
import { valueAt } from './valueAt.ts';
import { startServer, type TestServer } from './harness.ts';
import { waitFor } from '../support/wait.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The commands an extension manifest contributes; none when it has no such list. */
function commandsOf(manifest: unknown): unknown[] {
  const commands = valueAt(manifest, 'contributes', 'commands');
  return Array.isArray(commands) ? commands : [];
}

const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The server's output once it holds `pattern`; bounded. */
async function outputWith(server: TestServer, pattern: RegExp): Promise<string> {
  await waitFor(() => pattern.test(server.output()), `the server printing ${pattern}`).catch((error: Error) => {
    throw new Error(`${error.message}:\n${server.output()}`);
  });
  return server.output();
}

describe('cev serve: next steps after the ready line', () => {
  it('names the web UI, the API reference, the quickstart, the VS Code settings and where the key is', async () => {
    const server = await startServer({ process: true, noApiKey: true });
    try {
      const output = await outputWith(server, /The key: .*\n/);
      const lines = output.split('\n');
      const ready = lines.findIndex((line) => listenUrlOf(line) !== undefined);
      assert.match(lines[ready], /^Compliance Evidence API listening on http:\/\/127\.0\.0\.1:\d+ /);
      assert.equal(listenUrlOf(lines[ready]), server.url);
      const steps = lines.slice(ready + 1).join('\n');
      assert.match(steps, new RegExp(`^  Web UI +${server.url}/  \\(sign in with the key\\)$`, 'm'));
      assert.match(steps, new RegExp(`^  API reference +${server.url}/api/v2/doc/ `, 'm'));
      assert.match(steps, /^ {2}Quickstart +README\.md, section "Quickstart"/m);
      assert.match(readme, /^## Quickstart/m, 'the section the quickstart line names exists');
      assert.match(
        steps,
        new RegExp(
          `^  VS Code +set complianceEvidence\\.customUrl to ${server.url} and complianceEvidence\\.org to default,$`,
          'm',
        ),
      );
      assert.match(steps, /Compliance Evidence: Sign In/);
      assert.ok(
        commandsOf(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))).some(
          (command) => valueAt(command, 'title') === 'Sign In',
        ),
      );
      const keyFile = /kept in (\S+\/admin-key)\)\.$/m.exec(steps)?.[1];
      assert.equal(keyFile, join(server.dataDir, 'admin-key'));
      assert.equal(readFileSync(keyFile, 'utf8').trim(), server.key);

      const reference = await server.get('/api/v2/doc/', { key: null });
      assert.equal(reference.status, 200, 'the API reference it names answers');
    } finally {
      await server.stop();
    }
  });

  it("says where a key given with CEV_API_KEY comes from, and lists every org for the extension's setting", async () => {
    const server = await startServer({ process: true, args: ['--org', 'acme', '--org', 'beta'] });
    try {
      const output = await outputWith(server, /The key: .*\n/);
      assert.match(output, /complianceEvidence\.org to one of acme, beta,/);
      assert.match(output, /The key: the key given with CEV_API_KEY\./);
      assert.doesNotMatch(output, new RegExp(server.key), 'the key itself is not printed again');
    } finally {
      await server.stop();
    }
  });

  it("is not printed by the extension's server entry (dist/api-server.js), which the extension reads", async () => {
    const server = await startServer({ process: true, entry: 'api-server' });
    try {
      assert.equal((await server.get('/ready', { key: null })).text, 'OK');
      assert.doesNotMatch(server.output(), /Next steps/);
    } finally {
      await server.stop();
    }
  });
});
