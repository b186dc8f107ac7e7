// Audit packages under load (issue 23): four concurrent downloads of the package of a trail with
// 40 x 10 MB evidence, once of log-like text (which compresses) and once of random bytes (which
// does not, as evidence archives do not). Printed: how long the four took, the evidence packed a
// second, the server's RSS growth, and /ready's median, p95 and slowest answer meanwhile against its median
// on the idle server measured in the same run. Target: /ready's median under load within 100 ms.
// On main before the packages streamed: RSS +1.74 GB and /ready up to 25 s.
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { attest, beginTrail, createFlow } from '../api/fixtures.ts';
import { startServer, type TestServer } from '../api/harness.ts';
import { watchServer } from '../security/serverProbes.ts';
import { median, medianMs } from './stats.ts';

const MB = 1024 * 1024;
const FILES = Number(process.env.CEV_BENCH_PACKAGE_FILES ?? 40);
const TARGET_MS = 100;

async function seed(server: TestServer, trail: string, content: Buffer): Promise<void> {
  await beginTrail(server, 'default', 'web', trail);
  for (let index = 0; index < FILES; index += 1) {
    const reply = await attest(
      server,
      'default',
      'web',
      trail,
      'generic',
      { attestation_name: `part-${index}` },
      {
        filename: `part-${index}.bin`,
        content,
      },
    );
    if (reply.status !== 201) throw new Error(`attest: ${reply.status} ${reply.text}`);
  }
}

/** Downloads the package four times at once; answers the bytes sent in all. */
async function fourPackages(server: TestServer, trail: string): Promise<number> {
  const sizes = await Promise.all(
    Array.from({ length: 4 }, async () => {
      const response = await request(`${server.url}/api/v2/trails/default/web/${trail}/audit_package`, {
        headers: { authorization: `Bearer ${server.key}` },
        bodyTimeout: 600_000,
      });
      let bytes = 0;
      for await (const chunk of response.body) bytes += (chunk as Buffer).length;
      return bytes;
    }),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

async function main(): Promise<void> {
  const server = await startServer({ process: true });
  let within = true;
  try {
    await createFlow(server, 'default', 'web');
    await seed(server, 'text', Buffer.alloc(10 * MB, 'line 42: test case passed in 0.003 s\n'));
    await seed(server, 'random', randomBytes(10 * MB));
    const idleMs = await medianMs(() => server.get('/ready', { key: null }), 50);
    for (const trail of ['text', 'random']) {
      const watch = watchServer(server);
      const started = performance.now();
      const sent = await fourPackages(server, trail);
      const seconds = (performance.now() - started) / 1000;
      const { rssGrowthMb, readyMs } = await watch.stop();
      const sorted = [...readyMs].sort((a, b) => a - b);
      const readyMedian = median(readyMs);
      within &&= readyMedian <= TARGET_MS;
      console.log(
        `4 packages of ${FILES} x 10 MB ${trail}: ${seconds.toFixed(1)} s, ${((4 * FILES * 10) / seconds).toFixed(0)} MB/s` +
          ` of evidence packed (${(sent / MB).toFixed(0)} MB sent),` +
          ` RSS +${rssGrowthMb.toFixed(0)} MB; /ready median ${readyMedian.toFixed(1)} ms` +
          ` (idle ${idleMs.toFixed(1)} ms), p95 ${sorted[Math.floor(sorted.length * 0.95)].toFixed(1)} ms,` +
          ` slowest ${sorted[sorted.length - 1].toFixed(1)} ms over ${sorted.length} answers` +
          `  ${readyMedian <= TARGET_MS ? 'ok' : 'MISSED'} (target median ≤ ${TARGET_MS} ms)`,
      );
    }
  } finally {
    await server.stop();
  }
  if (!within) process.exitCode = 1;
}

await main();
