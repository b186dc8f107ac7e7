// `npm run test:vscode`: the same test entry in desktop VS Code through @vscode/test-electron, for
// machines that can download VS Code (this project's CI cannot, and runs `npm run test:e2e`).
// Tests that need the page driver of the code-server runner skip here.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './runner/results.mjs';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(e2eDir, '..', '..');
const outputDir = path.join(repoRoot, 'test-output', 'e2e');
const { runTests } = createRequire(path.join(e2eDir, 'package.json'))('@vscode/test-electron');

const started = Date.now();
rmSync(outputDir, { recursive: true, force: true });
mkdirSync(outputDir, { recursive: true });
const scratch = mkdtempSync(path.join(tmpdir(), 'cev-vscode-'));
const workspace = path.join(scratch, 'workspace');
mkdirSync(workspace);
let code = 1;
try {
  code = await runTests({
    // The download stays in the e2e cache folder, out of the repository's tracked files.
    cachePath: path.join(e2eDir, '.cache', 'vscode'),
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: path.join(e2eDir, '.cache', 'suite', 'index.cjs'),
    extensionTestsEnv: { E2E_OUTPUT_DIR: outputDir },
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--user-data-dir',
      path.join(scratch, 'user'),
      '--extensions-dir',
      path.join(scratch, 'extensions'),
    ],
  });
} catch (error) {
  console.error(
    `test:vscode: ${error instanceof Error ? error.message : String(error)} (where VS Code cannot be downloaded, run npm run test:e2e)`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(
  summarize({ outputDir, repoRoot, exitCode: code, elapsed: `${((Date.now() - started) / 1000).toFixed(1)} s` }),
);
