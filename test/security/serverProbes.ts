// What the attack suite watches of a running server while it is attacked: its memory (VmRSS, from
// /proc), its open files, how long /ready takes to answer, and whether it is still the same
// process. Plus raw sockets (node:net) for requests no HTTP client would send: a body that trickles,
// a download closed in the middle.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import type { TestServer } from '../api/harness.ts';

/** A web session's cookie for this key, signed in as from the server's own sign-in page. */
export async function sessionCookie(server: TestServer, key: string): Promise<string> {
  const signedIn = await server.raw('POST', '/sign-in', `key=${key}`, {
    'content-type': 'application/x-www-form-urlencoded',
    'sec-fetch-site': 'same-origin',
  });
  const cookie = String(signedIn.headers['set-cookie']).split(';')[0];
  assert.match(cookie, /^cev_session=./, `signed in: ${signedIn.status}`);
  return cookie;
}

/** The server's resident memory in MB. */
export function rssMb(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(line !== null, `VmRSS of pid ${pid}`);
  return Number(line[1]) / 1024;
}

/** How many files (sockets included) the server holds open. */
export function openFileCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** The server still runs as the same process and answers /ready. */
export async function assertAlive(server: TestServer, pid: number): Promise<void> {
  assert.equal(server.pid, pid);
  assert.equal(server.child.exitCode, null, `the server exited:\n${server.output()}`);
  assert.equal(server.child.signalCode, null, `the server was killed:\n${server.output()}`);
  assert.equal((await server.get('/ready', { key: null })).status, 200);
}

export interface Watch {
  /** Stops watching; answers the peak RSS growth (MB) and how long each /ready took (ms). */
  stop(): Promise<{ rssGrowthMb: number; slowestReadyMs: number; readyAnswers: number; readyMs: number[] }>;
}

/**
 * Samples the server's RSS every 50 ms and asks /ready one request after another, from now until
 * stop(): what a server that buffers or blocks shows at once.
 */
export function watchServer(server: TestServer): Watch {
  const baseline = rssMb(server.pid);
  let peak = baseline;
  const readyMs: number[] = [];
  let watching = true;
  const sampler = setInterval(() => {
    // A server that is gone (the test failed and stopped it) has nothing more to sample.
    if (server.child.exitCode !== null || server.child.signalCode !== null) clearInterval(sampler);
    else peak = Math.max(peak, rssMb(server.pid));
  }, 50);
  const asking = (async () => {
    while (watching) {
      const started = performance.now();
      const reply = await server.get('/ready', { key: null });
      assert.equal(reply.status, 200);
      readyMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      watching = false;
      clearInterval(sampler);
      await asking;
      peak = Math.max(peak, rssMb(server.pid));
      return {
        rssGrowthMb: peak - baseline,
        slowestReadyMs: Math.max(0, ...readyMs),
        readyAnswers: readyMs.length,
        readyMs,
      };
    },
  };
}

/** A connection to the server, open once connected. */
export function socketTo(server: TestServer): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves once the server has closed the socket (or it failed). */
export function closedBy(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed || socket.readableEnded) resolve();
    socket.once('close', () => resolve());
    socket.once('end', () => resolve());
  });
}
