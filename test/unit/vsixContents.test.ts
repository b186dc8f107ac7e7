// The .vsix carries every bundle the extension runs and every file those bundles read beside
// themselves at run time: the local API server starts dist/evaluation-worker.js as its evaluation
// threads, and a package without it would fail only on the first preview a user asked for.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

describe('the .vsix', function () {
  this.timeout(60_000);

  it('holds every bundle of dist/ but the command line, and the API reference and webview files', () => {
    const packed = new Set(
      execFileSync(process.execPath, [join(root, 'node_modules/@vscode/vsce/vsce'), 'ls', '--no-dependencies'], {
        cwd: root,
        encoding: 'utf8',
      })
        .split('\n')
        .filter((line) => line !== ''),
    );
    const bundles = readdirSync(join(root, 'dist'))
      .filter((name) => name.endsWith('.js') && name !== 'cli.js')
      .map((name) => `dist/${name}`);
    assert.deepEqual(
      bundles.filter((bundle) => !packed.has(bundle)),
      [],
    );
    for (const file of ['dist/api-reference/index.html', 'dist/media/details.js', 'package.json', 'README.md'])
      assert.ok(packed.has(file), file);
  });
});
