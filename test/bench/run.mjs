// `npm run bench`: runs every test/bench/*.bench.ts in its own Node process, one after another,
// so one benchmark's garbage and open handles never weigh on the next. Words pick benchmarks by
// file name; everything from the first `--option` on goes to each of them (`scale -- --max 100000`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const firstOption = args.findIndex((arg) => arg.startsWith('--'));
const only = firstOption === -1 ? args : args.slice(0, firstOption);
const options = firstOption === -1 ? [] : args.slice(firstOption);
const files = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((word) => name.includes(word)))
  .sort();

let failed = 0;
for (const name of files) {
  console.log(`\n=== ${name}`);
  const result = spawnSync(process.execPath, [join(here, name), ...options], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exitCode = failed === 0 ? 0 : 1;
