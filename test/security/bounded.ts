// What the attack suite measures while a hostile request runs (issue 23): how long the request
// took, how long /ready took to answer meanwhile (each probe on its own connection, one after
// another until the request is done), the server's resident memory before and after, and that it
// is still the same live process.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import type { TestServer } from '../api/harness.ts';

export interface Bounded<T> {
  result: T;
  elapsedMs: number;
  /** The slowest /ready answer while the request ran. */
  readyMs: number;
  readyProbes: number;
  /** Growth of the server's resident memory over the request, in MB. */
  rssGrowthMb: number;
}

/** The server process's resident memory, in MB (Linux). */
export function rssMb(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(line, `no VmRSS for pid ${pid}`);
  return Number(line[1]) / 1024;
}

async function readyLatency(server: TestServer): Promise<number> {
  const started = performance.now();
  const reply = await request(`${server.url}/ready`, { headersTimeout: 60_000, bodyTimeout: 60_000, reset: true });
  await reply.body.text();
  assert.equal(reply.statusCode, 200, '/ready answers');
  return performance.now() - started;
}

/** Runs `hostile` while probing /ready; at least one probe, however fast the request. */
export async function whileProbingReady<T>(server: TestServer, hostile: () => Promise<T>): Promise<Bounded<T>> {
  const rssBefore = rssMb(server.pid);
  const started = performance.now();
  let done = false;
  const running = hostile().finally(() => {
    done = true;
  });
  const probes: number[] = [];
  do probes.push(await readyLatency(server));
  while (!done);
  const result = await running;
  const elapsedMs = performance.now() - started;
  return {
    result,
    elapsedMs,
    readyMs: Math.max(...probes),
    readyProbes: probes.length,
    rssGrowthMb: rssMb(server.pid) - rssBefore,
  };
}

/** The server is the same process it was, still running and answering. */
export async function assertAlive(server: TestServer, pid: number): Promise<void> {
  assert.equal(server.pid, pid);
  assert.equal(server.child.exitCode, null, 'the server process has not exited');
  assert.equal(server.child.signalCode, null, 'the server process was not killed');
  assert.ok((await readyLatency(server)) < 10_000);
}

/** One line for the closing note of the issue: what was measured. */
export function report(label: string, measured: Bounded<unknown>): void {
  console.log(
    `      ${label}: ${measured.elapsedMs.toFixed(0)} ms, /ready at most ${measured.readyMs.toFixed(1)} ms over ${measured.readyProbes} probes, RSS ${measured.rssGrowthMb >= 0 ? '+' : ''}${measured.rssGrowthMb.toFixed(0)} MB`,
  );
}
