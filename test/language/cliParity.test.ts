// One truth: every golden fixture gets the same findings from the editor (published diagnostics)
// as from `cev validate` — same codes, severities, messages and 1-based positions.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadFixtures } from '../unit/golden.ts';
import { repoRoot, startClient, type LspClient } from './lspClient.ts';

const severityNames = ['', 'error', 'warning', 'information', 'hint'];

describe('language server and cev validate agree', function () {
  this.timeout(60_000);
  let client: LspClient;

  before(async () => {
    client = startClient();
    await client.initialize({ complianceEvidence: { diagnostics: { debounceMs: 0, maxProblems: 10_000 } } });
  });

  after(async () => {
    await client.stop();
  });

  it('on every golden fixture', async () => {
    const fixtures = loadFixtures();
    const cli = spawnSync(
      process.execPath,
      [join(repoRoot, 'dist', 'cli.js'), 'validate', ...fixtures.map((fixture) => fixture.path)],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    assert.equal(cli.status, 1, `cev validate exits 1 on the fixtures (some are invalid): ${cli.stderr}`);
    const fromCli = new Map<string, string[]>();
    for (const line of cli.stdout.split('\n').filter((row) => row !== '')) {
      const match = /^(.*):(\d+):(\d+): (\S+) (\S+) (.*)$/.exec(line);
      assert.ok(match, `a cev validate line: ${line}`);
      const [, file, row, column, severity, code, message] = match;
      fromCli.set(file, [...(fromCli.get(file) ?? []), `${row}:${column} ${severity} ${code} ${message}`]);
    }
    for (const fixture of fixtures) {
      const uri = pathToFileURL(fixture.path).href;
      const published = client.nextPublish(uri);
      client.open(uri, fixture.path.endsWith('.json') ? 'json' : 'yaml', fixture.text);
      const fromEditor = (await published).diagnostics.map(
        (d) =>
          `${d.range.start.line + 1}:${d.range.start.character + 1} ${severityNames[d.severity ?? 1]} ${String(d.code)} ${d.message}`,
      );
      const cliFindings = fromCli.get(fixture.path) ?? fromCli.get(fixture.path.slice(repoRoot.length + 1)) ?? [];
      assert.deepEqual(fromEditor, cliFindings, fixture.name);
      client.close(uri);
    }
  });
});
