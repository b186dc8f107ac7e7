// A second API server (the product's own bundle) that the tests start to stand for a remote one,
// on a free loopback port with a throwaway data folder; stopped by its PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { listenUrlOf } from '../../../../shared/readyLine.ts';
import { repoRoot } from './paths.ts';

export interface ApiServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  stop(): Promise<void>;
}

export async function startApiServer(org: string, apiKey: string, readyTimeoutMs = 20_000): Promise<ApiServer> {
  const data = mkdtempSync(path.join(tmpdir(), 'cev-e2e-remote-'));
  const child = spawn(
    process.execPath,
    [
      path.join(repoRoot(), 'dist', 'api-server.js'),
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data',
      data,
      '--org',
      org,
    ],
    {
      // VS Code's desktop host is Electron: make it run as plain Node. The key stays off the command line.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', CEV_API_KEY: apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(data, { recursive: true, force: true });
  };
  try {
    const url = await readyUrl(child, readyTimeoutMs);
    return { url, stop };
  } catch (error) {
    child.kill('SIGKILL');
    await stop();
    throw error;
  }
}

/** The listen URL from the server's ready line, within the time limit. */
function readyUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const output: string[] = [];
    const timer = setTimeout(
      () => reject(new Error(`the API server was not ready within ${timeoutMs} ms: ${output.join(' | ')}`)),
      timeoutMs,
    );
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        output.push(line);
        const url = listenUrlOf(line);
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      });
    }
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`the API server exited (${code}) before it was ready: ${output.join(' | ')}`));
    });
  });
}
