// Runs the bundled API server (dist/api-server.js) as a child process and waits for its ready line.
// Plain Node, no VS Code: the extension passes the extension host's own executable, tests pass Node.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { listenUrlOf } from '../../shared/readyLine.ts';

export interface LocalServerOptions {
  /** The Node to run: `process.execPath` (the extension host runs it with ELECTRON_RUN_AS_NODE). */
  nodePath: string;
  /** Path of `dist/api-server.js`. */
  script: string;
  dataDir: string;
  org: string;
  apiKey: string;
  /** Every output line of the server, with the API key masked. */
  onOutput: (line: string, stream: 'stdout' | 'stderr') => void;
  readyTimeoutMs?: number;
}

export interface RunningServer {
  /** The listen URL from the ready line, e.g. `http://127.0.0.1:40123`. */
  url: string;
  pid: number;
  /** Resolves with the exit code (or signal name) when the process ends, whoever ended it. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL if it has not exited within the grace period. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The arguments hold no secret: every local user can read a command line (ps). Webhooks may go to
 * this machine and its network (`--allow-private-webhooks`): the server listens on loopback and
 * its one key is the developer's, who can reach those addresses without it; there is no other
 * user to keep them from, and a receiver under development is on this machine.
 */
export function localServerArgs(options: Pick<LocalServerOptions, 'script' | 'dataDir' | 'org'>): string[] {
  return [
    options.script,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--data',
    options.dataDir,
    '--org',
    options.org,
    '--allow-private-webhooks',
  ];
}

export function startLocalServer(options: LocalServerOptions): Promise<RunningServer> {
  const child = spawn(options.nodePath, localServerArgs(options), {
    // The admin key goes in the environment, which only this user can read.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', CEV_API_KEY: options.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const mask = (line: string) => line.split(options.apiKey).join('****');
  const exited = new Promise<number | string>((resolve) =>
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const recentErrors: string[] = [];

  return new Promise<RunningServer>((resolve, reject) => {
    let settled = false;
    const fail = (reason: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      reject(new Error(reason));
    };
    const timer = setTimeout(
      () => fail(`The local server did not report ready within ${(options.readyTimeoutMs ?? 20_000) / 1000} s.`),
      options.readyTimeoutMs ?? 20_000,
    );

    const watch = (stream: NodeJS.ReadableStream, name: 'stdout' | 'stderr') => {
      createInterface({ input: stream }).on('line', (raw) => {
        const line = mask(raw);
        options.onOutput(line, name);
        if (name === 'stderr' && line.trim() !== '') {
          recentErrors.push(line.trim());
          if (recentErrors.length > 5) recentErrors.shift();
        }
        const url = listenUrlOf(line);
        if (url && !settled) {
          settled = true;
          clearTimeout(timer);
          resolve({ url, pid: child.pid ?? -1, exited, stop: (graceMs) => stopChild(graceMs ?? 5000) });
        }
      });
    };
    watch(child.stdout, 'stdout');
    watch(child.stderr, 'stderr');
    child.once('error', (error) => fail(`The local server could not be started: ${error.message}`));
    // 'close' comes after the last output line, so the reason below includes it.
    void exited.then((code) =>
      fail(
        `The local server exited (${code}) before it was ready${recentErrors.length > 0 ? `: ${recentErrors.join(' ')}` : '.'}`,
      ),
    );
  });

  async function stopChild(graceMs: number): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
