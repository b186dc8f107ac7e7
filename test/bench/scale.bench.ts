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
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import autocannon from 'autocannon';
import { startServer, tempDataDir, type TestServer } from '../api/harness.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint, WORKED_TEMPLATE } from '../api/fixtures.ts';
import { nameSortKey } from '../../server/api/store/sortKey.ts';
import { multipart, scanData } from './scanBody.ts';

const SIZES = [1_000, 100_000, 1_000_000];
const maxArgument = process.argv.indexOf('--max');
const MAX = maxArgument === -1 ? Infinity : Number(process.argv[maxArgument + 1]);
const SECONDS = Number(process.env.CEV_BENCH_SECONDS ?? 3);
const CONNECTIONS = 10;
const TRAILS_PER_FLOW = 100;
/** Rows per seeding transaction: bounds the WAL between checkpoints. */
const SEED_BATCH = 100_000;

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? NaN : Number(match[1]) / 1024;
}

const flowName = (index: number): string => `flow-${String(index).padStart(6, '0')}`;

/** The rows every seeded row copies: a flow, a trail, an artifact and an attestation the API wrote. */
async function writeTemplates(server: TestServer): Promise<void> {
  await createFlow(server, 'acme', 'template-flow', WORKED_TEMPLATE);
  await beginTrail(server, 'acme', 'template-flow', 'template-trail');
  await attestArtifact(server, 'acme', 'template-flow', {
    fingerprint: fingerprint('template'),
    filename: 'cli',
    git_commit: commit('template'),
    trail_name: 'template-trail',
    template_reference_name: 'cli',
  });
  const reply = await attest(server, 'acme', 'template-flow', 'template-trail', 'generic', { attestation_name: 'bar', is_compliant: true });
  if (reply.status !== 201) throw new Error(`template attestation: ${reply.status} ${reply.text}`);
}

/** Trails, artifacts and attestations `from` ≤ i < `to`, and the flows they need, in batches. */
function seed(dataDir: string, from: number, to: number): void {
  const db = new DatabaseSync(join(dataDir, 'cev.sqlite'));
  db.exec('PRAGMA synchronous = OFF');
  const series = 'WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)';
  const flows = db.prepare(
    `INSERT INTO flows (id, org_id, name, name_key, description, visibility, template_id, template_content, template, tags, repo_url, created_by, created_at, last_modified_at)
     SELECT ?, org_id, ?, ?, description, visibility, template_id, template_content, template, tags, repo_url, created_by, created_at, last_modified_at
       FROM flows WHERE name = 'template-flow'`,
  );
  const trails = db.prepare(
    `${series} INSERT INTO trails (id, org_id, flow_id, name, description, template_id, template_content, template, body, created_by, created_at, last_modified_at)
     SELECT 'trail-' || i, s.org_id, 'flow-' || (i / ${TRAILS_PER_FLOW}), 'trail-' || i, s.description, s.template_id, s.template_content, s.template, s.body,
            s.created_by, s.created_at + i, s.created_at + i
       FROM n, (SELECT * FROM trails WHERE name = 'template-trail') s`,
  );
  const artifacts = db.prepare(
    `${series} INSERT INTO artifacts (id, org_id, flow_id, trail_id, fingerprint, template_reference_name, filename, git_commit, repo_name, body, created_at, last_modified_at)
     SELECT 'artifact-' || i, s.org_id, 'flow-' || (i / ${TRAILS_PER_FLOW}), 'trail-' || i, lower(hex(randomblob(32))), s.template_reference_name, s.filename,
            lower(hex(randomblob(20))), s.repo_name, s.body, s.created_at + i, s.created_at + i
       FROM n, (SELECT * FROM artifacts WHERE filename = 'cli' LIMIT 1) s`,
  );
  const attestations = db.prepare(
    `${series} INSERT INTO attestations (id, org_id, flow_id, trail_id, name, type, is_override, is_compliant, artifact_fingerprint, target_artifact,
                                         evidence_sha256, evidence_filename, body, reported_by, created_at)
     SELECT 'attestation-' || i, s.org_id, 'flow-' || (i / ${TRAILS_PER_FLOW}), 'trail-' || i, s.name, s.type, s.is_override, s.is_compliant, NULL, NULL,
            NULL, NULL, s.body, s.reported_by, s.created_at + i
       FROM n, (SELECT * FROM attestations WHERE name = 'bar' LIMIT 1) s`,
  );
  for (let start = from; start < to; start += SEED_BATCH) {
    const end = Math.min(to, start + SEED_BATCH);
    db.exec('BEGIN');
    for (let flow = Math.ceil(start / TRAILS_PER_FLOW); flow * TRAILS_PER_FLOW < end; flow++) {
      // Flow ids follow the trails' 'flow-' || (i / 100); names are zero-padded so they sort by number.
      flows.run(`flow-${flow}`, flowName(flow), nameSortKey(flowName(flow)));
    }
    trails.run(start, end);
    artifacts.run(start, end);
    attestations.run(start, end);
    db.exec('COMMIT');
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  db.close();
}

/** An 8-hex prefix of one seeded fingerprint that no other fingerprint or commit shares. */
function uniquePrefix(dataDir: string): string {
  const db = new DatabaseSync(join(dataDir, 'cev.sqlite'), { readOnly: true });
  try {
    for (let index = 0; ; index++) {
      const row = db.prepare("SELECT fingerprint FROM artifacts WHERE id = ?").get(`artifact-${index * 7}`) as { fingerprint: string } | undefined;
      if (row === undefined) throw new Error('no seeded artifact');
      const prefix = row.fingerprint.slice(0, 8);
      const bound = `${prefix}\u{10FFFF}`;
      const fingerprints = db.prepare('SELECT count(*) AS n FROM artifacts WHERE fingerprint >= ? AND fingerprint < ?').get(prefix, bound) as { n: number };
      const commits = db.prepare('SELECT count(*) AS n FROM artifacts WHERE lower(git_commit) >= ? AND lower(git_commit) < ?').get(prefix, bound) as { n: number };
      if (Number(fingerprints.n) === 1 && Number(commits.n) === 0) return prefix;
    }
  } finally {
    db.close();
  }
}

interface Measure {
  rps: number;
  p99: number;
}

/** The better of two rounds after a warm-up: the machine is shared, and others' load only slows a round down. */
async function measure(server: TestServer, path: string): Promise<Measure> {
  const options = { url: `${server.url}${path}`, headers: { authorization: `Bearer ${server.key}` }, connections: CONNECTIONS };
  await autocannon({ ...options, duration: 1 });
  let best: Measure | undefined;
  for (let round = 0; round < 2; round++) {
    const result = await autocannon({ ...options, duration: SECONDS });
    if (result.non2xx + result.errors > 0) throw new Error(`GET ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    if (best === undefined || result.requests.average > best.rps) best = { rps: result.requests.average, p99: result.latency.p99 };
  }
  return best!;
}

/** The requests of the table, at a store of `size` trails. */
function requestsAt(size: number, prefix: string): Array<[string, string]> {
  const flows = size / TRAILS_PER_FLOW;
  const flow = flowName(Math.floor(flows / 2));
  const deepPage = TRAILS_PER_FLOW / 20;
  return [
    ['GET /flows/{org}', '/api/v2/flows/acme?page=1&per_page=20'],
    ['GET /artifacts/{org}', '/api/v2/artifacts/acme?page=1&per_page=20'],
    ['GET /search/{org}/sha/{8 hex}', `/api/v2/search/acme/sha/${prefix}`],
    ['GET /trails/{org}?flow= page 1', `/api/v2/trails/acme?flow=${flow}&page=1&per_page=20`],
    [`GET /trails/{org}?flow= page ${deepPage}`, `/api/v2/trails/acme?flow=${flow}&page=${deepPage}&per_page=20`],
    ['GET /trails/{org}/{flow}', `/api/v2/trails/acme/${flow}?page=1&per_page=20`],
    ['GET /trails/{org}/{flow}/{trail}', `/api/v2/trails/acme/${flow}/trail-${Math.floor(flows / 2) * TRAILS_PER_FLOW + 7}`],
  ];
}

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
    const created = await server.multipart('PUT', '/api/v2/flows/acme/template_file', {
      data_json: JSON.stringify({ name: 'service' }),
      template_file: { filename: 't.yml', content: 'version: 1\ntrail:\n  attestations:\n    - name: scan-0\n      type: scan\n' },
    });
    if (created.status !== 201) throw new Error(`create flow: ${created.status} ${created.text}`);
    await beginTrail(server, 'acme', 'service', 'build-1');
    const { body, contentType } = multipart(scanData(0));
    const options = {
      url: `${server.url}/api/v2/attestations/acme/service/trail/build-1/scan`,
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${server.key}`, 'content-type': contentType },
      connections: 50,
    };
    await autocannon({ ...options, duration: 1 });
    const before = fsyncCommitsPerSecond();
    const result = await autocannon({ ...options, duration: SECONDS });
    const after = fsyncCommitsPerSecond();
    if (result.non2xx + result.errors > 0) throw new Error(`scan attestations: ${result.non2xx} non-2xx, ${result.errors} errors`);
    const limit = (before + after) / 2;
    const ratio = result.requests.average / limit;
    const ok = ratio >= 0.5;
    console.log(
      `\nscan attestations at 50 concurrent: ${result.requests.average.toFixed(0)} req/s (p99 ${result.latency.p99} ms) vs ${limit.toFixed(0)} single-row synced commits/s → ${ratio.toFixed(2)}×${ok ? '  ok' : '  MISSED'} (target ≥ 0.5×)`,
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
  console.log(`per_page 20, ${CONNECTIONS} connections, ${SECONDS} s per request; ratios to each request's own 1k rate`);
  for (const size of sizes) {
    const started = performance.now();
    seed(dataDir, seeded, size);
    seeded = size;
    console.log(`\n${size.toLocaleString('en')} artifacts (seeded in ${((performance.now() - started) / 1000).toFixed(0)} s)`);
    const prefix = uniquePrefix(dataDir);
    const server = await startServer({ args: ['--org', 'acme'], dataDir, timeoutMs: 120_000 });
    try {
      for (const [label, path] of requestsAt(size, prefix)) {
        const { rps, p99 } = await measure(server, path);
        const key = label.replace(/page \d+$/, 'deep page');
        if (!base.has(key)) base.set(key, rps);
        const ratio = rps / base.get(key)!;
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
      console.log(`server RSS: ${rss.toFixed(0)} MB${size >= 1_000_000 ? (rssOk ? '  ok (target < 300 MB)' : '  MISSED (target < 300 MB)') : ''}`);
    } finally {
      await server.stop({ keepData: size !== sizes[sizes.length - 1] });
    }
  }
  ok = (await writeRatio()) && ok;
  process.exitCode = ok ? 0 : 1;
}

await main();
