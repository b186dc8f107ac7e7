// A team's shared server (issue 10): the same requests on SQLite, on PostgreSQL behind one server
// instance and on PostgreSQL behind two instances with the load spread over both, in one run.
// Reads: the scale benchmark's lists and searches at per_page 20, at 1k and 100k artifacts (each
// engine's 100k rate as a ratio to its own 1k rate: the same flat growth as on SQLite). Writes: scan
// attestations at 50 concurrent requests. Targets: two instances ≥ 1.5× the read rate of one;
// PostgreSQL writes ≥ 0.5× SQLite's. Each measurement also prints how busy the whole machine was
// (all cores) and how many cores the server instances, PostgreSQL and the load generator used,
// which tells whether a missed target is the code (an instance short of CPU it could have) or the
// machine (no idle core left), and who takes the cores: two instances read faster than one only
// if the server instances, not the database or the load generator, are what the cores run.
// Each write measurement also prints the CPU time per attestation of the server instances and of
// PostgreSQL, and the load average after them.
// Deep pages are scale.bench.ts's (`-- --postgres` for PostgreSQL): here each list's first page.
// `npm run bench engines -- --max 1000` stops at the smaller size; `-- --writes` measures writes only.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, tempDataDir, type TestServer } from '../api/harness.ts';
import { startPostgres } from '../api/postgres.ts';
import {
  cpuSeconds,
  cpuSecondsSince,
  machineTicks,
  labelOf,
  measure,
  requestsAt,
  scanWrites,
  treeCpuSeconds,
  uniquePrefix,
  uniquePrefixPostgres,
  type Measure,
} from './scaleData.ts';
import { seedPostgres, seedSqlite, writeTemplates } from './scaleSeeding.ts';

const SIZES = [1_000, 100_000];
const maxArgument = process.argv.indexOf('--max');
const MAX = maxArgument === -1 ? Infinity : Number(process.argv[maxArgument + 1]);
const WRITES_ONLY = process.argv.includes('--writes');

interface Observed extends Measure {
  /** Share of the whole machine's CPU in use during the measurement (0–1, all cores). */
  machineBusy: number;
  /** Cores the server instances used together during the measurement. */
  serverCores: number;
  /** Cores PostgreSQL used (its server and every backend), 0 on SQLite. */
  databaseCores: number;
  /** Cores this process used: the load generator. */
  loadCores: number;
  /** CPU milliseconds per request of the server instances and of PostgreSQL, when the measurement counted its requests. */
  serverMsPerRequest?: number;
  databaseMsPerRequest?: number;
}

/** `run` with the machine's, the instances', the database's and the load generator's CPU use over it. */
async function observed(
  servers: TestServer[],
  database: number | undefined,
  run: () => Promise<Measure>,
): Promise<Observed> {
  const machineBefore = machineTicks();
  const cpuBefore = servers.map((server) => cpuSeconds(server.pid));
  const databaseBefore = database === undefined ? new Map<number, number>() : treeCpuSeconds(database);
  const loadBefore = cpuSeconds(process.pid);
  const started = performance.now();
  const result = await run();
  const seconds = (performance.now() - started) / 1000;
  const machineAfter = machineTicks();
  const cpu = servers.reduce((sum, server, i) => sum + cpuSeconds(server.pid) - cpuBefore[i], 0);
  const databaseAfter = database === undefined ? new Map<number, number>() : treeCpuSeconds(database);
  const databaseCpu = cpuSecondsSince(databaseBefore, databaseAfter);
  const perRequest = (cpuSeconds: number): number | undefined =>
    result.requests === undefined ? undefined : (cpuSeconds * 1000) / result.requests;
  return {
    ...result,
    machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
    serverCores: cpu / seconds,
    databaseCores: databaseCpu / seconds,
    loadCores: (cpuSeconds(process.pid) - loadBefore) / seconds,
    serverMsPerRequest: perRequest(cpu),
    databaseMsPerRequest: database === undefined ? undefined : perRequest(databaseCpu),
  };
}

const CONFIGS = ['SQLite', 'PG 1 instance', 'PG 2 instances'] as const;
type Config = (typeof CONFIGS)[number];

function cell(result: Observed, base: number | undefined): string {
  const ratio = base === undefined ? '' : ` (${(result.rps / base).toFixed(2)}×)`;
  const perRequest =
    result.serverMsPerRequest === undefined
      ? ''
      : `; CPU per request: servers ${result.serverMsPerRequest.toFixed(2)} ms${result.databaseMsPerRequest === undefined ? '' : `, database ${result.databaseMsPerRequest.toFixed(2)} ms`}`;
  return `${result.rps.toFixed(0)} req/s${ratio} p99 ${result.p99} ms [machine ${(result.machineBusy * 100).toFixed(0)}% busy, servers ${result.serverCores.toFixed(2)}, database ${result.databaseCores.toFixed(2)}, load generator ${result.loadCores.toFixed(2)} cores${perRequest}]`;
}

async function main(): Promise<void> {
  const sizes = WRITES_ONLY ? [] : SIZES.filter((size) => size <= MAX);
  const postgres = await startPostgres();
  const evidence = mkdtempSync(join(tmpdir(), 'cev-evidence-'));
  const sqliteDir = tempDataDir();
  let ok = true;
  try {
    const url = await postgres.createDatabase('scale');
    const pgArgs = ['--org', 'acme', '--database', url, '--evidence', evidence];
    const sqliteFirst = await startServer({ args: ['--org', 'acme'], dataDir: sqliteDir });
    await writeTemplates(sqliteFirst);
    await sqliteFirst.stop({ keepData: true });
    const pgFirst = await startServer({ args: pgArgs });
    await writeTemplates(pgFirst);
    await pgFirst.stop();

    const base = new Map<string, number>();
    let seeded = 0;
    if (sizes.length > 0)
      console.log('per_page 20, 10 connections (spread over the instances), 3 s per request, the better of two rounds');
    for (const size of sizes) {
      seedSqlite(sqliteDir, seeded, size);
      await seedPostgres(url, seeded, size);
      seeded = size;
      const prefixes = { sqlite: uniquePrefix(sqliteDir), postgres: await uniquePrefixPostgres(url) };
      const sqlite = await startServer({ args: ['--org', 'acme'], dataDir: sqliteDir, timeoutMs: 120_000 });
      const instances = await Promise.all([0, 1].map(() => startServer({ args: pgArgs, timeoutMs: 120_000 })));
      console.log(
        `\n${size.toLocaleString('en')} artifacts; each cell: req/s (ratio to the same engine and instances at 1k)`,
      );
      try {
        // Each list's first page (deep pages are scale.bench.ts's), on each engine's own seeded values.
        const firstPages = (prefix: string) => requestsAt(size, prefix).filter((request) => request.page <= 1);
        const pgRequests = firstPages(prefixes.postgres);
        for (const [i, request] of firstPages(prefixes.sqlite).entries()) {
          const results: Record<Config, Observed> = {
            SQLite: await observed([sqlite], undefined, () => measure(sqlite, request.path)),
            'PG 1 instance': await observed([instances[0]], postgres.pid, () =>
              measure(instances[0], pgRequests[i].path),
            ),
            'PG 2 instances': await observed(instances, postgres.pid, () => measure(instances, pgRequests[i].path)),
          };
          console.log(labelOf(request));
          for (const config of CONFIGS) {
            const id = `${config}\0${request.list}`;
            if (!base.has(id)) base.set(id, results[config].rps);
            const ratio = results[config].rps / base.get(id)!;
            const flatTarget = size >= 100_000 ? 0.5 : 0;
            const flat = ratio >= flatTarget;
            ok = ok && flat;
            console.log(
              `  ${config.padEnd(15)} ${cell(results[config], size === sizes[0] ? undefined : base.get(id))}${flat ? '' : '  MISSED (≥ 0.5 of 1k)'}`,
            );
          }
          const spread = results['PG 2 instances'].rps / results['PG 1 instance'].rps;
          const spreadOk = spread >= 1.5;
          ok = ok && spreadOk;
          console.log(
            `  2 instances / 1 instance: ${spread.toFixed(2)}×${spreadOk ? '  ok' : '  MISSED'} (target ≥ 1.5×)`,
          );
        }
      } finally {
        await sqlite.stop({ keepData: true });
        for (const instance of instances) await instance.stop();
      }
    }

    console.log('\nscan attestations at 50 concurrent (a fresh flow on each)');
    const writes = new Map<Config, Observed>();
    const sqlite = await startServer({ args: ['--org', 'acme'] });
    try {
      writes.set('SQLite', await observed([sqlite], undefined, () => scanWrites([sqlite], 'service-sqlite')));
    } finally {
      await sqlite.stop();
    }
    const instances = await Promise.all([0, 1].map(() => startServer({ args: pgArgs })));
    try {
      writes.set(
        'PG 1 instance',
        await observed([instances[0]], postgres.pid, () => scanWrites([instances[0]], 'service-pg-1')),
      );
      writes.set(
        'PG 2 instances',
        await observed(instances, postgres.pid, () => scanWrites(instances, 'service-pg-2')),
      );
    } finally {
      for (const instance of instances) await instance.stop();
    }
    const sqliteWrites = writes.get('SQLite')!.rps;
    for (const config of CONFIGS) {
      const result = writes.get(config)!;
      const ratio = result.rps / sqliteWrites;
      const target = config === 'SQLite' ? undefined : 0.5;
      const met = target === undefined || ratio >= target;
      ok = ok && met;
      console.log(
        `  ${config.padEnd(15)} ${cell(result, undefined)}  ${ratio.toFixed(2)}× of SQLite${target === undefined ? '' : met ? '  ok' : '  MISSED (≥ 0.5×)'}`,
      );
    }
    console.log(
      `  load average ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    rmSync(sqliteDir, { recursive: true, force: true });
    rmSync(evidence, { recursive: true, force: true });
    await postgres.stop();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
