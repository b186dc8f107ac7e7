// Evidence at scale (issue 9): the lists and searches stay flat as the store grows. One data
// directory is seeded to 1k, 100k and 1M artifacts (trails = artifacts, flows = trails / 100, one
// attestation per trail) in batched SQL, copying rows the API wrote, so seeding takes minutes; at
// each size the server is restarted on it and every request below is measured with autocannon at
// per_page 20 (the better of two rounds). Each rate is printed as a ratio to its own 1k figure
// (targets: ≥ 0.5 at 100k, ≥ 0.3 at 1M), with p99 (target < 50 ms) and the server's RSS (target
// < 300 MB at 1M).
// Writes: scan attestations at 50 concurrent requests against the single-row commit limit (each
// commit synced to disk) measured in the same run (target: ≥ 0.5×).
// `npm run bench scale -- --max 100000` stops at a smaller size.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startServer, tempDataDir } from '../api/harness.ts';
import {
  CONNECTIONS,
  measure,
  requestsAt,
  rssMb,
  scanWrites,
  SECONDS,
  seedSqlite,
  uniquePrefix,
  writeTemplates,
} from './scaleData.ts';

const SIZES = [1_000, 100_000, 1_000_000];
const maxArgument = process.argv.indexOf('--max');
const MAX = maxArgument === -1 ? Infinity : Number(process.argv[maxArgument + 1]);
/** Single-row commits per second, each synced to disk, on the file system the servers use. */
function fsyncCommitsPerSecond(): number {
  const dir = tempDataDir();
  const db = new DatabaseSync(join(dir, 'commits.sqlite'));
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('CREATE TABLE t (x INTEGER)');
    const insert = db.prepare('INSERT INTO t (x) VALUES (?)');
    const start = performance.now();
    let commits = 0;
    while (performance.now() - start < SECONDS * 1000) insert.run(commits++);
    return commits / ((performance.now() - start) / 1000);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function writeRatio(): Promise<boolean> {
  const server = await startServer({ args: ['--org', 'acme'] });
  try {
    const before = fsyncCommitsPerSecond();
    const result = await scanWrites([server], 'service');
    const after = fsyncCommitsPerSecond();
    const limit = (before + after) / 2;
    const ratio = result.rps / limit;
    const ok = ratio >= 0.5;
    console.log(
      `\nscan attestations at 50 concurrent: ${result.rps.toFixed(0)} req/s (p99 ${result.p99} ms) vs ${limit.toFixed(0)} single-row synced commits/s → ${ratio.toFixed(2)}×${ok ? '  ok' : '  MISSED'} (target ≥ 0.5×)`,
    );
    return ok;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const sizes = SIZES.filter((size) => size <= MAX);
  const dataDir = tempDataDir();
  const first = await startServer({ args: ['--org', 'acme'], dataDir });
  await writeTemplates(first);
  await first.stop({ keepData: true });

  const base = new Map<string, number>();
  let ok = true;
  let seeded = 0;
  console.log(
    `per_page 20, ${CONNECTIONS} connections, ${SECONDS} s per request; ratios to each request's own 1k rate`,
  );
  for (const size of sizes) {
    const started = performance.now();
    seedSqlite(dataDir, seeded, size);
    seeded = size;
    console.log(
      `\n${size.toLocaleString('en')} artifacts (seeded in ${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
    const prefix = uniquePrefix(dataDir);
    const server = await startServer({ args: ['--org', 'acme'], dataDir, timeoutMs: 120_000 });
    try {
      for (const [label, path] of requestsAt(size, prefix)) {
        const { rps, p99 } = await measure(server, path);
        if (!base.has(label)) base.set(label, rps);
        const ratio = rps / base.get(label)!;
        const target = size >= 1_000_000 ? 0.3 : size >= 100_000 ? 0.5 : 0;
        const flat = ratio >= target;
        const fast = p99 < 50;
        ok = ok && flat && fast;
        console.log(
          `${label.padEnd(36)} ${rps.toFixed(0).padStart(7)} req/s  ${ratio.toFixed(2)}× of 1k${target > 0 ? (flat ? '  ok' : `  MISSED (≥ ${target})`) : ''}  p99 ${p99} ms${fast ? '' : '  MISSED (< 50 ms)'}`,
        );
      }
      const rss = rssMb(server.pid);
      const rssOk = size < 1_000_000 || rss < 300;
      ok = ok && rssOk;
      console.log(
        `server RSS: ${rss.toFixed(0)} MB${size >= 1_000_000 ? (rssOk ? '  ok (target < 300 MB)' : '  MISSED (target < 300 MB)') : ''}`,
      );
    } finally {
      await server.stop({ keepData: size !== sizes[sizes.length - 1] });
    }
  }
  ok = (await writeRatio()) && ok;
  process.exitCode = ok ? 0 : 1;
}

await main();
