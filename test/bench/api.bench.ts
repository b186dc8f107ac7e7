// The local API server under load (issue 3), against a bare node:http server answering a 2 KB JSON
// body, measured in the same run with the same autocannon settings, in alternating short rounds
// (the machine is shared, so each round's ratio is taken and the median reported):
// - list-trails, per_page 20, in a flow of 1,000 trails (target: at least 30% of the bare rate);
// - scan attestations, multipart with a 2 KB data_json;
// - the server's RSS after 10,000 attestations (target: under 200 MB).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { startServer, type TestServer } from '../api/harness.ts';
import { multipart, scanData } from './scanBody.ts';
import { median } from './stats.ts';
import type { FlowAttestation, Page, Trail } from '../api/answers.ts';

const TRAILS = 1000;
const ATTESTATIONS = 10_000;
const ROUND_S = Number(process.env.CEV_BENCH_SECONDS ?? 2);
const ROUNDS = 5;
const CONNECTIONS = 10;

/** A bare node:http server answering a 2 KB JSON body, in its own process like the API server. */
const BARE_SERVER = `
const body = JSON.stringify({ data: 'x'.repeat(2048 - 12) });
const server = require('node:http').createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;

async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bare server did not start')), 10_000);
    child.stdout.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      resolve(chunk.toString().trim());
    });
  });
  return { url, child };
}

async function rate(options: autocannon.Options): Promise<{ rps: number; total: number }> {
  const result = await autocannon({ connections: CONNECTIONS, duration: ROUND_S, ...options });
  if (result.non2xx + result.errors > 0)
    throw new Error(
      `${options.method ?? 'GET'} ${String(options.url)}: ${result.non2xx} non-2xx, ${result.errors} errors`,
    );
  return { rps: result.requests.average, total: result.requests.total };
}

/** Alternating rounds of the baseline and the subject: median rates and the median of the per-round ratios. */
async function compare(
  baseline: autocannon.Options,
  subject: autocannon.Options,
): Promise<{ baseline: number; subject: number; ratio: number; total: number }> {
  const rounds: Array<{ baseline: number; subject: number }> = [];
  let total = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const base = await rate(baseline);
    const measured = await rate(subject);
    total += measured.total;
    rounds.push({ baseline: base.rps, subject: measured.rps });
  }
  return {
    baseline: median(rounds.map((round) => round.baseline)),
    subject: median(rounds.map((round) => round.subject)),
    ratio: median(rounds.map((round) => round.subject / round.baseline)),
    total,
  };
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? 0 : Number(match[1]) / 1024;
}

function line(label: string, value: number, baseline: number, ratio: number, minRatio?: number): boolean {
  const verdict =
    minRatio === undefined
      ? ''
      : ratio >= minRatio
        ? `  ok (target ≥ ${minRatio}×)`
        : `  MISSED (target ≥ ${minRatio}×)`;
  console.log(
    `${label}: ${value.toFixed(0)} req/s vs bare node:http ${baseline.toFixed(0)} req/s (medians of ${ROUNDS} alternating ${ROUND_S} s rounds) → ${ratio.toFixed(2)}×${verdict}`,
  );
  return minRatio === undefined || ratio >= minRatio;
}

async function seedTrails(server: TestServer): Promise<void> {
  const created = await server.multipart('PUT', '/api/v2/flows/bench/template_file', {
    data_json: JSON.stringify({ name: 'service' }),
    template_file: {
      filename: 't.yml',
      content: 'version: 1\ntrail:\n  attestations:\n    - name: scan-0\n      type: scan\n',
    },
  });
  if (created.status !== 201) throw new Error(`create flow: ${created.status} ${created.text}`);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < TRAILS) {
        const index = next++;
        const reply = await server.multipart('PUT', '/api/v2/trails/bench/service', {
          data_json: JSON.stringify({ name: `build-${index}`, description: `Build ${index}` }),
        });
        if (reply.status !== 201) throw new Error(`begin trail: ${reply.status} ${reply.text}`);
      }
    }),
  );
}

async function topUpAttestations(server: TestServer, already: number): Promise<void> {
  let next = already;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < ATTESTATIONS) {
        const index = next++;
        const { body, contentType } = multipart(scanData(index));
        const reply = await server.raw('POST', '/api/v2/attestations/bench/service/trail/build-1/scan', body, {
          authorization: `Bearer ${server.key}`,
          'content-type': contentType,
        });
        if (reply.status !== 201) throw new Error(`attest: ${reply.status} ${reply.text}`);
      }
    }),
  );
}

async function main(): Promise<void> {
  const server = await startServer({ args: ['--org', 'bench'], timeoutMs: 30_000 });
  const bare = await startBare();
  let ok = true;
  try {
    await seedTrails(server);
    const auth = { authorization: `Bearer ${server.key}` };
    const listUrl = `${server.url}/api/v2/trails/bench/service?page=1&per_page=20`;
    const check = (await server.get<Page<Trail>>('/api/v2/trails/bench/service?page=1&per_page=20')).body;
    if (check.pagination.total !== TRAILS || check.data.length !== 20)
      throw new Error('list-trails does not see the 1,000 trails');

    const list = await compare({ url: bare.url }, { url: listUrl, headers: auth });
    ok = line(`list-trails (per_page 20 of ${TRAILS})`, list.subject, list.baseline, list.ratio, 0.3) && ok;

    const { body, contentType } = multipart(scanData(0));
    const scan = await compare(
      { url: bare.url, method: 'POST', body, headers: { 'content-type': contentType } },
      {
        url: `${server.url}/api/v2/attestations/bench/service/trail/build-1/scan`,
        method: 'POST',
        body,
        headers: { ...auth, 'content-type': contentType },
      },
    );
    line(
      'scan attestations (multipart, 2 KB data_json, each committed with fsync)',
      scan.subject,
      scan.baseline,
      scan.ratio,
    );

    await topUpAttestations(server, scan.total);
    const stored = (await server.get<Page<FlowAttestation>>('/api/v2/attestations/bench/service?per_page=1')).body
      .pagination.total;
    const rss = rssMb(server.pid);
    const rssOk = rss < 200;
    ok = rssOk && ok;
    console.log(
      `server RSS after ${stored} attestations: ${rss.toFixed(1)} MB  ${rssOk ? 'ok' : 'MISSED'} (target < 200 MB)`,
    );
  } finally {
    bare.child.kill('SIGTERM');
    await server.stop();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
