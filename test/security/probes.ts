// What the attack suite measures of a server process while a hostile request runs: how long the
// readiness probe takes meanwhile, how much memory the process holds, and whether it is the same
// process afterwards. Every wait is bounded.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
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
 * The prober: a process of its own asks /ready every 20 ms, one request at a time, until a line
 * arrives on its stdin; then it prints the slowest answer and how many it got (the one in flight
 * when told to stop included). Out of the test's process, whose own work (writing megabytes of
 * hostile JSON, collecting them) would delay the answers it measures.
 */
const PROBER = `
const url = process.argv.at(-1);
let running = true;
let max = 0;
let samples = 0;
process.stdin.once('data', () => { running = false; process.stdin.destroy(); });
process.stdout.write('probing\\n');
while (running) {
  const start = performance.now();
  const reply = await fetch(url, { signal: AbortSignal.timeout(30000) });
  await reply.text();
  if (reply.status !== 200) throw new Error('/ready answered ' + reply.status);
  max = Math.max(max, performance.now() - start);
  samples += 1;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
process.stdout.write(JSON.stringify({ max, samples }) + '\\n');
`;

/** A line the child prints, within 30 s. */
function lineOf(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the /ready prober did not print ${what} within 30 s`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(out.split('\n')[0]);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the /ready prober exited (${code}) before printing ${what}`)));
  });
}

/**
 * Runs `work` while a prober process asks `baseUrl`/ready every 20 ms; answers what `work` gave,
 * how long it took and the slowest /ready meanwhile.
 */
export async function whileProbingReady<T>(baseUrl: string, work: () => Promise<T>): Promise<Measured<T>> {
  const prober = spawn(process.execPath, ['--input-type=module', '-e', PROBER, `${baseUrl}/ready`], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  try {
    await lineOf(prober, 'that it started');
    const start = performance.now();
    const result = await work();
    const ms = performance.now() - start;
    const figures = lineOf(prober, 'its figures');
    prober.stdin.write('stop\n');
    const { max, samples } = JSON.parse(await figures) as { max: number; samples: number };
    return { result, ms, readyMs: max, readySamples: samples };
  } finally {
    if (prober.exitCode === null) prober.kill();
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
