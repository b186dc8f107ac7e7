// Starts the built server (dist/cli.js serve, or dist/api-server.js) on a free loopback port with
// a temporary data directory, and talks HTTP to it with undici. Every wait is bounded; every
// process is stopped by its pid; every temporary directory is removed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, FormData, request } from 'undici';
import { listenUrlOf } from '../../shared/readyLine.ts';
import { parseServeArgs } from '../../server/commands/serveOptions.ts';
import { startServer as startRunning } from '../../server/api/start.ts';
import { contractFailure } from './contract.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ADMIN_KEY = 'test-admin-key-0123456789';

export interface Reply<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: T;
}

export interface RequestOptions {
  /** The API key to send; null sends no Authorization header. Default: the admin key. */
  key?: string | null;
  /** How the key is sent. */
  scheme?: 'bearer' | 'basic';
  headers?: Record<string, string>;
}

export type Part = string | { filename: string; content: string | Uint8Array; type?: string };

export interface StartOptions {
  /** Extra flags after the harness's own. */
  args?: string[];
  /** Reuse this data directory (restart); otherwise a fresh temporary one. */
  dataDir?: string;
  /** Without an admin key (the server generates one). */
  noApiKey?: boolean;
  /** Run in memory instead of a data directory. */
  memory?: boolean;
  entry?: 'cli' | 'api-server';
  /** A process of its own in every tier: the test needs its pid, a signal, kill -9 or what it prints as a process. */
  process?: boolean;
  timeoutMs?: number;
  /** Lines of a --config YAML file, written into the data directory (removed with it). */
  config?: string[];
  /** The server's clock runs this many seconds off (clockShift.mjs): a clock set back, or another instance's behind; a process of its own. */
  clockShiftSeconds?: number;
}

/**
 * Where a test server runs: a process of its own (the built dist/cli.js, as users run it), or this
 * test process (the fast tier: the same server from its sources, on loopback, without a process
 * start per test). A test that needs the process itself (its pid, a signal, kill -9) starts its
 * server with `process: true`.
 */
interface ServerHost {
  readonly child: ChildProcess | undefined;
  /** Stops the server cleanly; answers the exit code (0 for a server in this process). */
  stop(): Promise<number | null>;
  /** Stops the server without a chance to finish anything. */
  kill(): Promise<void>;
}

export class TestServer {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly key: string;
  private readonly agent = new Agent({ connections: 64, keepAliveTimeout: 1000 });
  private readonly logs: string[];
  private readonly host: ServerHost;

  constructor(host: ServerHost, port: number, dataDir: string, key: string, logs: string[]) {
    this.host = host;
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
    this.dataDir = dataDir;
    this.key = key;
    this.logs = logs;
  }

  /** The server's own process; only servers of the process tier have one. */
  get child(): ChildProcess {
    if (this.host.child === undefined)
      throw new Error('this test needs the server in a process of its own: start it with { process: true }');
    return this.host.child;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Everything the server printed so far. */
  output(): string {
    return this.logs.join('');
  }

  private authorization(options: RequestOptions): Record<string, string> {
    const key = options.key === undefined ? this.key : options.key;
    if (key === null) return {};
    if (options.scheme === 'basic') return { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
    return { authorization: `Bearer ${key}` };
  }

  // T is the record type the caller reads the body as (test/api/answers.ts); the body has just been
  // checked against the wire contract for this operation, so the contract's type is what it holds.
  // Without one, T is Reply's own default.
  async raw<T = Reply['body']>(
    method: string,
    path: string,
    body: string | Uint8Array | FormData | undefined,
    headers: Record<string, string>,
  ): Promise<Reply<T>> {
    const response = await request(`${this.url}${path}`, {
      method: method as 'GET',
      body,
      headers,
      dispatcher: this.agent,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await response.body.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const failure = contractFailure(
      method,
      path,
      response.statusCode,
      String(response.headers['content-type'] ?? ''),
      parsed,
      text,
    );
    if (failure !== undefined) throw new Error(`the answer breaks the wire contract: ${failure}`);
    return { status: response.statusCode, headers: response.headers, text, body: parsed as T };
  }

  /** A request with an optional JSON body (`undefined` sends none). */
  json<T = Reply['body']>(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...this.authorization(options), ...options.headers };
    if (body !== undefined) headers['content-type'] = 'application/json; charset=utf-8';
    return this.raw<T>(method, path, body === undefined ? undefined : JSON.stringify(body), headers);
  }

  get<T = Reply['body']>(path: string, options: RequestOptions = {}): Promise<Reply<T>> {
    return this.json<T>('GET', path, undefined, options);
  }

  /** A multipart request: string parts are fields, objects are file parts. */
  multipart<T = Reply['body']>(
    method: string,
    path: string,
    parts: Record<string, Part>,
    options: RequestOptions = {},
  ): Promise<Reply<T>> {
    const form = new FormData();
    for (const [name, part] of Object.entries(parts)) {
      if (typeof part === 'string') form.append(name, part);
      else
        form.append(
          name,
          new Blob([Buffer.from(part.content)], { type: part.type ?? 'application/octet-stream' }),
          part.filename,
        );
    }
    return this.raw<T>(method, path, form, { ...this.authorization(options), ...options.headers });
  }

  /** SIGTERM and wait for a clean exit (SIGKILL after the bound); answers the exit code. */
  async stop(options: { keepData?: boolean } = {}): Promise<number | null> {
    await this.agent.close();
    const code = await this.host.stop();
    if (!options.keepData) rmSync(this.dataDir, { recursive: true, force: true });
    return code;
  }

  /** kill -9: no chance to finish anything. Keeps the data directory. */
  async kill(): Promise<void> {
    await this.host.kill();
    await this.agent.destroy();
  }
}

function exited(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server pid ${child.pid} did not exit within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** A server in a process of its own. */
function processHost(child: ChildProcess): ServerHost {
  return {
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      try {
        return await exited(child, 10_000);
      } catch (error) {
        child.kill('SIGKILL');
        await exited(child, 5_000);
        throw error;
      }
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child, 10_000);
    },
  };
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'cev-api-'));
}

/**
 * Node flags the server runs with, as `npm start` gives them: a young generation of at most 8 MB
 * per semi-space keeps a busy server's memory flat (V8 otherwise grows it to tens of MB).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8'];

/** The flags of `cev serve` a test server gets: the harness's own, then the test's. */
function serveFlagsOf(options: StartOptions, dataDir: string): string[] {
  return [
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    ...(options.memory ? ['--memory'] : ['--data', dataDir]),
    ...(options.args ?? []),
  ];
}

/** The server's environment: the admin key travels here, never on a command line that every local user can read. */
function serverEnv(options: StartOptions): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.CEV_API_KEY;
  if (!options.noApiKey) env.CEV_API_KEY = ADMIN_KEY;
  if (options.clockShiftSeconds !== undefined) {
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --import=${join(root, 'test/api/clockShift.mjs')}`.trim();
    env.CEV_TEST_CLOCK_SHIFT_SECONDS = String(options.clockShiftSeconds);
  }
  return env;
}

/**
 * The engine servers run on: SQLite in their data directory, or with CEV_TEST_ENGINE=postgres a
 * database of their own (one per data directory, so a restart finds its data) on one PostgreSQL
 * server started for the whole run. In-memory servers stay in memory.
 */
export const ENGINE: 'sqlite' | 'postgres' = process.env.CEV_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
let postgres: Promise<PostgresServer> | undefined;
const databaseOf = new Map<string, Promise<string>>();

/** The shared PostgreSQL server of this run, started on first use and stopped after the last test. */
export function sharedPostgres(): Promise<PostgresServer> {
  if (postgres === undefined) {
    postgres = startPostgres();
    after(async function () {
      // The stop's bounds (postgres.ts) plus removing a directory of every test's database.
      this.timeout(60_000);
      await (await postgres!).stop();
    });
  }
  return postgres;
}

async function engineArgs(options: StartOptions, dataDir: string): Promise<string[]> {
  if (ENGINE !== 'postgres' || options.memory || (options.args ?? []).includes('--database')) return [];
  let url = databaseOf.get(dataDir);
  if (url === undefined) {
    url = sharedPostgres().then((server) => server.createDatabase(`cev_${databaseOf.size}_${process.pid}`));
    databaseOf.set(dataDir, url);
  }
  return ['--database', await url];
}

/**
 * Where servers run: in this process with CEV_TEST_SERVER=in-process, else each in a process of
 * its own. Servers started with an `entry` or `process: true` always get a process: the process is
 * what such a test is about; so does one whose clock is off, as its clock is the process's.
 */
export const IN_PROCESS = process.env.CEV_TEST_SERVER === 'in-process';

/** Starts a test server and resolves once it is listening. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const flags = [...serveFlagsOf(options, dataDir), ...(await engineArgs(options, dataDir))];
  if (options.config !== undefined) {
    const file = join(dataDir, 'cev.yaml');
    writeFileSync(file, options.config.join('\n'));
    flags.push('--config', file);
  }
  return IN_PROCESS &&
    options.entry === undefined &&
    options.process !== true &&
    options.clockShiftSeconds === undefined
    ? startInThisProcess(options, dataDir, flags)
    : startProcess(options, dataDir, flags);
}

/** The same server as `cev serve`, from its sources, in this process: its flags read as the command reads them. */
async function startInThisProcess(options: StartOptions, dataDir: string, flags: string[]): Promise<TestServer> {
  const logs: string[] = [];
  const say = (line: string): void => void logs.push(`${line}\n`);
  const running = await startRunning(parseServeArgs(flags, root, serverEnv(options)), say);
  const port = Number(new URL(running.url).port);
  const key = options.noApiKey ? generatedKey(logs.join(''), dataDir) : ADMIN_KEY;
  const host: ServerHost = {
    child: undefined,
    async stop() {
      await running.close();
      return 0;
    },
    // In one process nothing can be cut short as kill -9 does: tests of that are in the process tier.
    kill() {
      return Promise.reject(
        new Error('kill -9 needs the server in a process of its own: start it with { process: true }'),
      );
    },
  };
  return new TestServer(host, port, dataDir, key, logs);
}

/** The built server (dist/cli.js serve, or dist/api-server.js), resolved once it printed its ready line. */
async function startProcess(options: StartOptions, dataDir: string, flags: string[]): Promise<TestServer> {
  const entry = options.entry === 'api-server' ? 'dist/api-server.js' : 'dist/cli.js';
  const args = [
    ...SERVER_NODE_FLAGS,
    join(root, entry),
    ...(options.entry === 'api-server' ? [] : ['serve']),
    ...flags,
  ];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: serverEnv(options),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const timeoutMs = options.timeoutMs ?? 15_000;
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not print its ready line within ${timeoutMs} ms:\n${logs.join('')}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      logs.push(chunk.toString());
      const url = logs
        .join('')
        .split('\n')
        .slice(0, -1)
        .map(listenUrlOf)
        .find((found) => found !== undefined);
      if (url !== undefined) {
        clearTimeout(timer);
        resolve(Number(new URL(url).port));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${logs.join('')}`));
    });
  });
  const key = options.noApiKey ? generatedKey(logs.join(''), dataDir) : ADMIN_KEY;
  return new TestServer(processHost(child), port, dataDir, key, logs);
}

/** The admin key the server printed, or the one it keeps in its data directory. */
function generatedKey(output: string, dataDir: string): string {
  const printed = output.split('\n').find((line) => /admin API key/i.test(line));
  if (printed !== undefined) return printed.slice(printed.lastIndexOf(': ') + 2).trim();
  try {
    return readFileSync(join(dataDir, 'admin-key'), 'utf8').trim();
  } catch {
    return '';
  }
}

/** Runs the server command to completion (for flag errors): exit code and output. */
export async function runServerCommand(
  args: string[],
  timeoutMs = 15_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(root, 'dist/cli.js'), 'serve', ...args], {
    cwd: root,
    env: serverEnv({ noApiKey: true }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cev serve ${args.join(' ')} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { code, stdout, stderr };
}
