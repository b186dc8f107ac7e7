// One truth: every golden fixture gets the same findings from the editor (published diagnostics)
// as from `cev validate` — same codes, severities, messages and 1-based positions. The messages
// are compared as `--format json` gives them, as written; the text format puts the field before each.
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
      [join(repoRoot, 'dist', 'cli.js'), 'validate', '--format', 'json', ...fixtures.map((fixture) => fixture.path)],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    assert.equal(cli.status, 1, `cev validate exits 1 on the fixtures (some are invalid): ${cli.stderr}`);
    const report = JSON.parse(cli.stdout) as {
      files: {
        file: string;
        findings: { line: number; column: number; severity: string; code: string; message: string }[];
      }[];
    };
    const fromCli = new Map(
      report.files.map((checked) => [
        checked.file,
        checked.findings.map(
          (finding) => `${finding.line}:${finding.column} ${finding.severity} ${finding.code} ${finding.message}`,
        ),
      ]),
    );
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
