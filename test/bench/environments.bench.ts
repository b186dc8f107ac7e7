// Environment reports and the audit log against the real server (issue 4):
// - a K8S report of 5,000 pods / 2,000 distinct digests into an environment whose latest snapshot
//   differs by 1% (a new snapshot each time), and the same report again unchanged (no snapshot);
// - an audit-log export of 100,000 events: time, and the server's peak RSS growth while it streams.
// Baseline, measured in the same run: the same report body sent to an environment that does not
// exist (auth, body transfer and JSON parsing, then a 404) — what any route pays for the body.
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { request } from 'undici';
import { startServer, type TestServer } from '../api/harness.ts';
import { medianMs, report } from './stats.ts';
import type { SnapshotSummary } from '../api/answers.ts';

const PODS = 5000;
const DIGESTS = 2000;
const CHANGED = DIGESTS / 100;
const EXPORT_EVENTS = 100_000;

const hex = (n: number): string => n.toString(16).padStart(64, '0');

/** 5,000 pods over 2,000 digests; `variant` replaces the first 1% of digests with fresh ones. */
function k8sReport(variant: number): string {
  const artifacts = [];
  for (let pod = 0; pod < PODS; pod++) {
    const image = pod % DIGESTS;
    const digest = image < CHANGED ? hex(variant * 1_000_000 + image + 1) : hex(image + 1);
    artifacts.push({
      podName: `app-${image}-${pod}`,
      namespace: 'prod',
      creationTimestamp: 1_700_000_000 + pod,
      digests: { [`registry.example/app-${image}:1.${variant}`]: digest },
      owners: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `app-${image}-rs`,
          uid: `uid-${image}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
  }
  return JSON.stringify({ artifacts });
}

/** A server report whose 2,000 files are all new relative to the previous one: 4,000 events. */
function serverReport(round: number): string {
  const digests: Record<string, string> = {};
  for (let file = 0; file < DIGESTS; file++)
    digests[`bin/file-${round}-${file}`] = hex(10_000_000 + round * DIGESTS + file);
  return JSON.stringify({ artifacts: [{ digests, creationTimestamp: 1_700_000_000 }] });
}

async function put(server: TestServer, path: string, body: string, expected: number): Promise<void> {
  const reply = await server.raw('PUT', path, body, {
    authorization: `Bearer ${server.key}`,
    'content-type': 'application/json',
  });
  if (reply.status !== expected) throw new Error(`PUT ${path}: ${reply.status} ${reply.text.slice(0, 300)}`);
}

function rssKb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? 0 : Number(match[1]);
}

function verdict(value: number, max: number, unit: string): string {
  return value <= max ? `ok (target < ${max} ${unit})` : `MISSED (target < ${max} ${unit})`;
}

async function main(): Promise<void> {
  const server = await startServer({ args: ['--org', 'bench'], timeoutMs: 30_000 });
  try {
    for (const [name, type] of [
      ['cluster', 'K8S'],
      ['servers', 'server'],
    ]) {
      await put(server, '/api/v2/environments/bench', JSON.stringify({ name, type, description: name }), 201);
    }
    // The absolute targets assume a quiet machine; say how busy this one is.
    console.log(
      `machine: ${availableParallelism()} CPUs, load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
    );
    const variants = [k8sReport(1), k8sReport(2)];
    console.log(
      `K8S report: ${PODS} pods, ${DIGESTS} digests, ${(variants[0].length / 1e6).toFixed(1)} MB of JSON; ${CHANGED} digests differ between runs`,
    );

    const baseline = await medianMs(
      () => put(server, '/api/v2/environments/bench/no-such-env/report/K8S', variants[0], 404),
      15,
      3,
    );
    await put(server, '/api/v2/environments/bench/cluster/report/K8S', variants[0], 200);
    let next = 1;
    const changed = await medianMs(
      async () => {
        await put(server, '/api/v2/environments/bench/cluster/report/K8S', variants[next], 200);
        next = 1 - next;
      },
      15,
      3,
    );
    const snapshotsAfterChanged = (await server.get<SnapshotSummary[]>('/api/v2/snapshots/bench/cluster?interval=NOW'))
      .body[0].index;
    const same = variants[1 - next];
    const unchanged = await medianMs(
      () => put(server, '/api/v2/environments/bench/cluster/report/K8S', same, 200),
      15,
      3,
    );
    const snapshotsAfterUnchanged = (
      await server.get<SnapshotSummary[]>('/api/v2/snapshots/bench/cluster?interval=NOW')
    ).body[0].index;
    if (snapshotsAfterUnchanged !== snapshotsAfterChanged) throw new Error('an unchanged report made a snapshot');
    console.log(`snapshots recorded: ${snapshotsAfterChanged} (one per changed report, none for unchanged ones)`);
    report('report, 1% different (new snapshot)', changed, baseline, 'ms');
    console.log(`  absolute: ${changed.toFixed(1)} ms median — ${verdict(changed, 250, 'ms')}`);
    report('report, unchanged (no snapshot)', unchanged, baseline, 'ms');
    console.log(`  absolute: ${unchanged.toFixed(1)} ms median — ${verdict(unchanged, 80, 'ms')}`);

    // 25 reports that each replace all 2,000 files: 2,000 exited + 2,000 started events each.
    const rounds = Math.ceil(EXPORT_EVENTS / (2 * DIGESTS)) + 1;
    for (let round = 0; round < rounds; round++)
      await put(server, '/api/v2/environments/bench/servers/report/server', serverReport(round), 200);
    const events = Number(
      (await server.get('/api/v2/environments/bench/servers/events?per_page=1')).headers['x-total-count'],
    );

    const rssBefore = rssKb(server.pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssKb(server.pid))), 5);
    const started = performance.now();
    const response = await request(`${server.url}/api/v2/environments/bench/servers/auditlog`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    let bytes = 0;
    let rows = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) rows += 1;
    }
    const exportMs = performance.now() - started;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, rssKb(server.pid));
    const growthMb = (rssPeak - rssBefore) / 1024;
    const csvMb = bytes / 1e6;
    console.log(
      `audit log: ${rows - 1} rows of ${events} events, ${csvMb.toFixed(1)} MB of CSV (status ${response.statusCode})`,
    );
    console.log(`audit-log export: ${exportMs.toFixed(0)} ms — ${verdict(exportMs, 1500, 'ms')}`);
    console.log(
      `server RSS growth during export: ${growthMb.toFixed(1)} MB peak for ${csvMb.toFixed(1)} MB of output ` +
        `(${(growthMb / csvMb).toFixed(2)}× the output: streamed, not buffered) — ${verdict(growthMb, 50, 'MB')}`,
    );
  } finally {
    await server.stop();
  }
}

await main();
