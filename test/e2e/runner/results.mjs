// The suite's verdict as both runners print it: counts and figures from results.json, which the
// test entry writes (suite/index.ts); a run without results has failed whatever the exit code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export function summarize({ outputDir, repoRoot, exitCode, elapsed }) {
  const screenshots = existsSync(outputDir) ? readdirSync(outputDir).filter((name) => name.endsWith('.png')) : [];
  console.log(
    `\n[e2e] screenshots: ${screenshots.map((name) => path.relative(repoRoot, path.join(outputDir, name))).join(', ') || 'none'}`,
  );
  console.log(`[e2e] total time ${elapsed}`);
  const resultsFile = path.join(outputDir, 'results.json');
  if (!existsSync(resultsFile)) {
    console.log('e2e: the suite wrote no results');
    return exitCode === 0 ? 1 : exitCode;
  }
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  for (const [name, value] of Object.entries(results.figures ?? {})) console.log(`[e2e] ${name}: ${value}`);
  for (const failure of results.failures ?? []) console.log(`[e2e] failed: ${failure.test}`);
  console.log(
    `e2e: ${results.passed} passed, ${results.failed} failed${results.pending ? `, ${results.pending} skipped` : ''}`,
  );
  return results.failed > 0 || results.passed === 0 ? 1 : exitCode;
}
