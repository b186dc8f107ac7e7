// The test entry VS Code's extension host loads (bundled to .cache/suite/index.cjs by build.mjs):
// code-server's host under `npm run test:e2e`, desktop VS Code's under `npm run test:vscode`.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { inspect } from 'node:util';
import { figures } from './support/figures.ts';
import { say } from './support/log.ts';
import { outputDir } from './support/paths.ts';

export async function run(): Promise<void> {
  // mocha 12 is ESM-only: imported (the bundle keeps the dynamic import), its default export is the class.
  const { default: Mocha } = await import('mocha');
  Mocha.reporters.Base.consoleLog = say;
  // E2E_GREP (a regular expression over full test titles) runs a subset while iterating on one view.
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    color: false,
    timeout: 60_000,
    slow: 5_000,
    ...(process.env.E2E_GREP ? { grep: process.env.E2E_GREP } : {}),
  });
  // The tests are in this bundle: install describe/it first, then evaluate the test modules in order.
  mocha.suite.emit('pre-require', globalThis, 'e2e', mocha);
  await import('./activation.test.ts');
  await import('./localServer.test.ts');
  await import('./flows.test.ts');
  await import('./previews.test.ts');
  await import('./environments.test.ts');
  await import('./details.test.ts');
  await import('./detailsEnvironments.test.ts');
  await import('./commands.test.ts');
  await import('./diagnostics.test.ts');
  await import('./signIn.test.ts');
  await import('./restart.test.ts');

  const counts = { passed: 0, failed: 0, pending: 0, failures: [] as { test: string; error: string }[] };
  const failures = await new Promise<number>((resolve) => {
    const runner = mocha.run(resolve);
    runner.on('pass', () => counts.passed++);
    runner.on('pending', () => counts.pending++);
    runner.on('fail', (test, error: unknown) => {
      counts.failed++;
      counts.failures.push({
        test: test.fullTitle(),
        error: error instanceof Error ? (error.stack ?? error.message) : inspect(error),
      });
    });
  });
  mkdirSync(outputDir(), { recursive: true });
  writeFileSync(path.join(outputDir(), 'results.json'), JSON.stringify({ ...counts, figures }, null, 2));
  if (failures > 0) throw new Error(`${failures} e2e test${failures === 1 ? '' : 's'} failed`);
}
