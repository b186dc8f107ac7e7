// Bounded polling and free loopback ports: the runner never sleeps for a fixed time.
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** Resolves with the first truthy result of `probe`, polled every `intervalMs`; rejects at the deadline. */
export async function waitFor(what, timeoutMs, probe, intervalMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await probe();
    if (result) return result;
    if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(intervalMs);
  }
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
