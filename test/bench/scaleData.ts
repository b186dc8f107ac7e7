// What the scale benchmarks share (issues 9, 10 and 27): the requests measured at each size of a
// store seeded by scaleSeeding.ts, and measuring them with autocannon against one or several
// server instances.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import autocannon from 'autocannon';
import pg from 'pg';
import type { TestServer } from '../api/harness.ts';
import { beginTrail } from '../api/fixtures.ts';
import { multipart, scanData } from './scanBody.ts';
import { median } from './stats.ts';
import { BIG_FLOW, BIG_REPO, BIG_SHARE, ENVIRONMENT, flowName, TRAILS_PER_FLOW } from './scaleSeeding.ts';

export const SECONDS = Number(process.env.CEV_BENCH_SECONDS ?? 3);
export const CONNECTIONS = 10;

export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? NaN : Number(match[1]) / 1024;
}

/** An 8-hex prefix of one seeded fingerprint that no other fingerprint or commit shares. */
export function uniquePrefix(dataDir: string): string {
  const db = new DatabaseSync(join(dataDir, 'cev.sqlite'), { readOnly: true });
  try {
    for (let index = 0; ; index++) {
      const row = db.prepare('SELECT fingerprint FROM artifacts WHERE id = ?').get(`artifact-${index * 7}`) as
        { fingerprint: string } | undefined;
      if (row === undefined) throw new Error('no seeded artifact');
      const prefix = row.fingerprint.slice(0, 8);
      const bound = `${prefix}\u{10FFFF}`;
      const fingerprints = db
        .prepare('SELECT count(*) AS n FROM artifacts WHERE fingerprint >= ? AND fingerprint < ?')
        .get(prefix, bound) as { n: number };
      const commits = db
        .prepare('SELECT count(*) AS n FROM artifacts WHERE lower(git_commit) >= ? AND lower(git_commit) < ?')
        .get(prefix, bound) as { n: number };
      if (Number(fingerprints.n) === 1 && Number(commits.n) === 0) return prefix;
    }
  } finally {
    db.close();
  }
}

export interface Measure {
  rps: number;
  p99: number;
  /** Every request the measurement made, warm-up included (what CPU time over it is divided by). */
  requests?: number;
}

/**
 * The better of two rounds after a warm-up: the machine is shared, and others' load only slows a
 * round down. Several servers share the connections (autocannon spreads them round-robin), so the
 * rate is what the instances answer together.
 */
export async function measure(
  servers: TestServer | TestServer[],
  path: string,
  connections = CONNECTIONS,
): Promise<Measure> {
  const list = Array.isArray(servers) ? servers : [servers];
  const url = list.map((server) => `${server.url}${path}`);
  const options = {
    url: url.length === 1 ? url[0] : url,
    headers: { authorization: `Bearer ${list[0].key}` },
    connections,
  };
  await autocannon({ ...options, duration: 1 });
  let best: Measure | undefined;
  for (let round = 0; round < 2; round++) {
    const result = await autocannon({ ...options, duration: SECONDS });
    if (result.non2xx + result.errors > 0)
      throw new Error(`GET ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    if (best === undefined || result.requests.average > best.rps)
      best = { rps: result.requests.average, p99: result.latency.p99 };
  }
  return best!;
}

/** Rounds of a list's pages, and each round's seconds per page. */
const ROUNDS = 3;
export const ROUND_SECONDS = Math.max(1, SECONDS - 1);

/** A page's rate and CPU per request, and their ratios to page 1 of the same list. */
export interface PageMeasure extends Measure {
  /** The median over rounds of the page's rate over page 1's in the same round (1 for page 1). */
  ratio: number;
  /** CPU milliseconds per request of the server instances (and the database, when given), in the median round. */
  cpuMs: number;
  /** The median over rounds of the page's CPU per request over page 1's in the same round. */
  cpuRatio: number;
}

/**
 * The pages of one list, measured in alternating rounds (page 1, then each deeper page, again):
 * the machine is shared, and another session's load lands on all the pages of a round alike, so
 * each page's ratios to page 1 are taken per round and the median kept: its rate's, and its CPU
 * time's per request (the servers', and the database's when its pid is given), which other
 * sessions' load moves far less than a rate. A page's rate and p99 are those of its median round.
 * After a one-second warm-up of each page.
 */
export async function measurePages(
  servers: TestServer | TestServer[],
  paths: readonly string[],
  database?: number,
): Promise<PageMeasure[]> {
  const list = Array.isArray(servers) ? servers : [servers];
  const cpu = (): number =>
    list.reduce((sum, server) => sum + cpuSeconds(server.pid), 0) +
    (database === undefined ? 0 : databaseCpuSeconds(database));
  const run = async (path: string, duration: number): Promise<Measure & { cpuMs: number }> => {
    const url = list.map((server) => `${server.url}${path}`);
    const before = cpu();
    const result = await autocannon({
      url: url.length === 1 ? url[0] : url,
      headers: { authorization: `Bearer ${list[0].key}` },
      connections: CONNECTIONS,
      duration,
    });
    if (result.non2xx + result.errors > 0)
      throw new Error(`GET ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    const cpuMs = ((cpu() - before) * 1000) / Math.max(1, result.requests.total);
    return { rps: result.requests.average, p99: result.latency.p99, cpuMs };
  };
  for (const path of paths) await run(path, 1);
  const rounds: Array<Array<Measure & { cpuMs: number }>> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const measured = [];
    for (const path of paths) measured.push(await run(path, ROUND_SECONDS));
    rounds.push(measured);
  }
  return paths.map((_, i) => {
    const byRate = rounds.map((measured) => measured[i]).sort((a, b) => a.rps - b.rps);
    return {
      ...byRate[Math.floor(byRate.length / 2)],
      ratio: median(rounds.map((measured) => measured[i].rps / measured[0].rps)),
      cpuRatio: median(rounds.map((measured) => measured[i].cpuMs / measured[0].cpuMs)),
    };
  });
}

/** Per page of every measured page. */
export const PER_PAGE = 20;

/** The pages measured of a list of `count` rows: 1, 50, 500 and 5,000 where they exist, and the last. */
function pagesOf(count: number): number[] {
  const last = Math.max(1, Math.ceil(count / PER_PAGE));
  const pages = [1, 50, 500, 5_000].filter((page) => page <= last);
  return pages.includes(last) || last > 5_000 ? pages : [...pages, last];
}

/** One measured request: a page of a list (`page` 0 for a request that is not one). */
export interface MeasuredRequest {
  list: string;
  page: number;
  path: string;
}

/** The requests of the table, at a store of `size` trails (scaleSeeding.ts): every list at its measured pages. */
export function requestsAt(size: number, prefix: string): MeasuredRequest[] {
  const flows = size / TRAILS_PER_FLOW;
  const flow = flowName(Math.floor(flows / 2));
  const big = size / BIG_SHARE;
  const everyTrail = size + big + 1;
  const paged = (list: string, count: number, path: string): MeasuredRequest[] =>
    pagesOf(count).map((page) => ({
      list,
      page,
      path: `/api/v2/${path}${path.includes('?') ? '&' : '?'}page=${page}&per_page=${PER_PAGE}`,
    }));
  return [
    ...paged('GET /flows/{org}', flows + 2, 'flows/acme'),
    ...paged('GET /artifacts/{org}', everyTrail, 'artifacts/acme'),
    ...paged('GET /artifacts/{org}?flow_name={big}', big, `artifacts/acme?flow_name=${BIG_FLOW}`),
    ...paged('GET /artifacts/{org}?repo_name={repo}', big, `artifacts/acme?repo_name=${BIG_REPO}`),
    { list: 'GET /search/{org}/sha/{8 hex}', page: 0, path: `/api/v2/search/acme/sha/${prefix}` },
    ...paged('GET /trails/{org}', everyTrail, 'trails/acme'),
    ...paged('GET /trails/{org}?flow=', TRAILS_PER_FLOW, `trails/acme?flow=${flow}`),
    ...paged('GET /trails/{org}?flow={big}', big, `trails/acme?flow=${BIG_FLOW}`),
    ...paged('GET /trails/{org}/{flow}', TRAILS_PER_FLOW, `trails/acme/${flow}`),
    ...paged('GET /trails/{org}/{big}', big, `trails/acme/${BIG_FLOW}`),
    {
      list: 'GET /trails/{org}/{flow}/{trail}',
      page: 0,
      path: `/api/v2/trails/acme/${flow}/trail-${Math.floor(flows / 2) * TRAILS_PER_FLOW + 7}`,
    },
    ...paged('GET /attestations/{org}/{big}', big, `attestations/acme/${BIG_FLOW}`),
    ...paged('GET /snapshots/{org}/{env}', big + 2, `snapshots/acme/${ENVIRONMENT}`),
    ...paged('GET /environments/{org}/{env}/events', big + 3, `environments/acme/${ENVIRONMENT}/events`),
  ];
}

/** A request's label in the tables: its list, and its page when it is one. */
export function labelOf(request: MeasuredRequest): string {
  return request.page === 0 ? request.list : `${request.list} p${request.page}`;
}

/** The requests grouped by list, in their order: each list's pages are measured together (measurePages). */
export function byList(requests: readonly MeasuredRequest[]): MeasuredRequest[][] {
  const lists = new Map<string, MeasuredRequest[]>();
  for (const request of requests) lists.set(request.list, [...(lists.get(request.list) ?? []), request]);
  return [...lists.values()];
}

/** uniquePrefix for a PostgreSQL database. */
export async function uniquePrefixPostgres(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let index = 0; ; index++) {
      const row = (
        await client.query<{ fingerprint: string }>('SELECT fingerprint FROM artifacts WHERE id = $1', [
          `artifact-${index * 7}`,
        ])
      ).rows[0];
      if (row === undefined) throw new Error('no seeded artifact');
      const prefix = row.fingerprint.slice(0, 8);
      const bound = `${prefix}\u{10FFFF}`;
      const count = async (column: string): Promise<number> =>
        Number(
          // count(*) is a bigint, which the client gives as text.
          (
            await client.query<{ n: string }>(
              `SELECT count(*) AS n FROM artifacts WHERE ${column} >= $1 AND ${column} < $2`,
              [prefix, bound],
            )
          ).rows[0].n,
        );
      if ((await count('fingerprint')) === 1 && (await count('lower(git_commit)')) === 0) return prefix;
    }
  } finally {
    await client.end();
  }
}

/**
 * Scan attestations POSTed at `connections` concurrent requests (spread over the servers) to one
 * trail of a flow created for it: req/s and p99, after a one-second warm-up.
 */
export async function scanWrites(servers: TestServer[], flow: string, connections = 50): Promise<Measure> {
  const first = servers[0];
  const created = await first.multipart('PUT', '/api/v2/flows/acme/template_file', {
    data_json: JSON.stringify({ name: flow }),
    template_file: {
      filename: 't.yml',
      content: 'version: 1\ntrail:\n  attestations:\n    - name: scan-0\n      type: scan\n',
    },
  });
  if (created.status !== 201) throw new Error(`create flow: ${created.status} ${created.text}`);
  await beginTrail(first, 'acme', flow, 'build-1');
  const { body, contentType } = multipart(scanData(0));
  const url = servers.map((server) => `${server.url}/api/v2/attestations/acme/${flow}/trail/build-1/scan`);
  const options = {
    url: url.length === 1 ? url[0] : url,
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${first.key}`, 'content-type': contentType },
    connections,
  };
  const warm = await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration: SECONDS });
  if (warm.non2xx + warm.errors + result.non2xx + result.errors > 0)
    throw new Error(`scan attestations: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    requests: warm.requests.total + result.requests.total,
  };
}

/** Busy time of the whole machine (all cores), from /proc/stat: read before and after a measurement. */
export function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + fields[4];
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** The fields of /proc/<pid>/stat after the command name (the state is field 0, the parent 1). */
function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds a process has used so far (user + system), from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds so far of a process and of each of its children (PostgreSQL's server and the
 * backend of each connection), by pid: compare two readings with cpuSecondsSince.
 */
export function treeCpuSeconds(pid: number): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = statFields(entry);
      if (Number(entry) === pid || Number(fields[1]) === pid)
        seconds.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return seconds;
}

/**
 * CPU seconds so far of PostgreSQL, whose backends come and go with the pool's connections: its
 * server's own, the backends it has reaped (cutime and cstime of its stat) and those alive.
 */
export function databaseCpuSeconds(pid: number): number {
  const fields = statFields(pid);
  const reaped = (Number(fields[13]) + Number(fields[14])) / 100;
  return reaped + cpuSecondsSince(new Map(), treeCpuSeconds(pid));
}

/** CPU seconds used between two readings of treeCpuSeconds (a process started in between counts whole; one ended is lost). */
export function cpuSecondsSince(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, seconds] of after) sum += seconds - (before.get(pid) ?? 0);
  return sum;
}
