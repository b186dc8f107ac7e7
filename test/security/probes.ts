// What the attack suite measures of a server process while a hostile request runs: how long the
// readiness probe takes meanwhile, how much memory the process holds, and whether it is the same
// process afterwards. Every wait is bounded.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'undici';
import type { Reply, TestServer } from '../api/harness.ts';

/** A line of /proc/<pid>/status in MB (`VmRSS`: now; `VmHWM`: the most ever held). */
export function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(match, `no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

export interface Measured<T> {
  result: T;
  /** Wall time of `work`, ms. */
  ms: number;
  /** The slowest /ready answer to a probe sent while `work` ran, ms (the one in flight at its end included). */
  readyMs: number;
  /** /ready probes sent while `work` ran. */
  readySamples: number;
}

/**
 * Runs `work` while asking `baseUrl`/ready every 20 ms, one request at a time, each bounded by
 * `readyTimeoutMs`; answers what `work` gave, how long it took and the slowest /ready meanwhile.
 */
export async function whileProbingReady<T>(
  baseUrl: string,
  work: () => Promise<T>,
  readyTimeoutMs = 30_000,
): Promise<Measured<T>> {
  let running = true;
  let readyMs = 0;
  let readySamples = 0;
  const probe = (async () => {
    while (running) {
      const start = performance.now();
      const reply = await request(`${baseUrl}/ready`, { headersTimeout: readyTimeoutMs, bodyTimeout: readyTimeoutMs });
      await reply.body.text();
      assert.equal(reply.statusCode, 200, '/ready answers 200');
      readyMs = Math.max(readyMs, performance.now() - start);
      readySamples += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const start = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - start;
    return { result, ms, ...(await stopped()) };
  } finally {
    await stopped();
  }

  // The probe in flight when `work` ends is waited for and counted: a blocked loop delays it most.
  async function stopped(): Promise<{ readyMs: number; readySamples: number }> {
    running = false;
    await probe;
    return { readyMs, readySamples };
  }
}

/** The process still runs under the same pid and answers /ready. */
export async function assertAlive(baseUrl: string, pid: number, expectedPid: number): Promise<void> {
  assert.equal(pid, expectedPid, 'the server process is the same one');
  process.kill(pid, 0);
  const reply = await request(`${baseUrl}/ready`, { headersTimeout: 10_000, bodyTimeout: 10_000 });
  await reply.body.text();
  assert.equal(reply.statusCode, 200, '/ready answers after the hostile request');
}

export interface Bounds {
  /** Most wall time of the request, ms. */
  ms: number;
  /** Most time /ready may take while it runs, ms. */
  readyMs: number;
  /** Most the server's peak RSS may grow meanwhile, MB. */
  growthMb: number;
}

/**
 * Sends one hostile request to `server` while probing /ready, holds it to `bounds` and to the same
 * process answering afterwards, and adds what was measured to `figures`; answers its reply.
 */
export async function hostileRequest<T>(
  server: TestServer,
  label: string,
  send: () => Promise<Reply<T>>,
  bounds: Bounds,
  figures: string[],
): Promise<Reply<T>> {
  const pid = server.pid;
  // The peak RSS (VmHWM) starts again from the current RSS (proc(5), clear_refs).
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = memoryMb(pid);
  const measured = await whileProbingReady(server.url, send);
  const growth = memoryMb(pid, 'VmHWM') - before;
  const reply = measured.result;
  figures.push(
    `${label}: ${reply.status} in ${measured.ms.toFixed(0)} ms, /ready at most ${measured.readyMs.toFixed(0)} ms (${measured.readySamples} probes), RSS ${before.toFixed(0)} MB, peak +${growth.toFixed(0)} MB, answer ${reply.text.length} bytes`,
  );
  assert.ok(measured.ms < bounds.ms, `${label}: ${measured.ms.toFixed(0)} ms`);
  assert.ok(measured.readyMs < bounds.readyMs, `${label}: /ready took ${measured.readyMs.toFixed(0)} ms meanwhile`);
  assert.ok(growth < bounds.growthMb, `${label}: peak RSS grew ${growth.toFixed(0)} MB`);
  assert.ok(!reply.text.includes('Maximum call stack'), `${label}: ${reply.text.slice(0, 300)}`);
  await assertAlive(server.url, server.pid, pid);
  return reply;
}

/** A POST with `key`, its JSON body written before the clock starts (writing megabytes would delay the probes). */
export function postAs<T>(server: TestServer, key: string, path: string, body: object): () => Promise<Reply<T>> {
  const text = JSON.stringify(body);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return () => server.raw<T>('POST', path, text, headers);
}
