// A real PostgreSQL server for tests: initdb into a temporary directory, postgres on a free
// loopback port (its unix socket in the same directory), one database per test server, stopped by
// its pid. initdb and postgres refuse to run as root, so as root they run as the postgres user.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { waitFor } from '../support/wait.ts';

const READY_MS = 30_000;
const STOP_MS = 15_000;

/** The directory of Debian's PostgreSQL binaries (the newest installed version). */
function binDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((name) => /^\d+$/.test(name)) : [];
  if (versions.length === 0) throw new Error('PostgreSQL is not installed: apt-get install postgresql (.ci/run does)');
  return join(base, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/** The uid and gid to run the database as: the postgres user when we are root, else ourselves. */
function databaseUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string): number => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

function exited(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`postgres pid ${child.pid} did not stop within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export class PostgresServer {
  private readonly child: ChildProcess;
  readonly dir: string;
  readonly port: number;
  private readonly logs: string[];

  constructor(child: ChildProcess, dir: string, port: number, logs: string[]) {
    this.child = child;
    this.dir = dir;
    this.port = port;
    this.logs = logs;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** The URL of database `name` on this server. */
  url(name = 'postgres'): string {
    return `postgresql://cev@127.0.0.1:${this.port}/${name}`;
  }

  /** Creates an empty database (binary collation, as SQLite compares text) and answers its URL. */
  async createDatabase(name: string): Promise<string> {
    const client = new pg.Client({ connectionString: this.url(), connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  output(): string {
    return this.logs.join('');
  }

  /**
   * Immediate shutdown (SIGQUIT), SIGKILL past the bound; then the directory goes. The data is
   * thrown away, so there is no shutdown checkpoint to wait for, and a server that needed SIGKILL
   * is stopped all the same: on a loaded machine (load average 8 on two cores) its backends took
   * longer than the bound to exit, which failed a run whose every test had passed.
   */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGQUIT');
    try {
      await exited(this.child, STOP_MS).catch(() => {
        this.child.kill('SIGKILL');
        return exited(this.child, 5_000);
      });
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  /** Stops the server and keeps its directory, to start it again with restart(). */
  async pause(): Promise<void> {
    this.child.kill('SIGINT');
    await exited(this.child, STOP_MS);
  }
}

/** Answers once a connection succeeds, or throws past the bound. */
async function waitReady(url: string, child: ChildProcess, logs: string[]): Promise<void> {
  const connects = async (): Promise<boolean> => {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`postgres exited before it was ready:\n${logs.join('')}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  await waitFor(connects, `postgres ready (log:\n${logs.join('')})`, READY_MS);
}

function spawnPostgres(dir: string, port: number, logs: string[]): ChildProcess {
  const user = databaseUser();
  const child = spawn(
    join(binDir(), 'postgres'),
    [
      '-D',
      join(dir, 'data'),
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '-k',
      dir,
      '-c',
      'max_connections=300',
      '-c',
      'shared_buffers=64MB',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) },
  );
  child.stdout.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  return child;
}

/** Starts a fresh PostgreSQL server in a temporary directory and answers once it takes connections. */
export async function startPostgres(): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cev-pg-'));
  const user = databaseUser();
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  const init = spawnSync(
    join(binDir(), 'initdb'),
    ['-D', join(dir, 'data'), '-U', 'cev', '--auth=trust', '--locale=C', '-E', 'UTF8', '--no-sync'],
    {
      encoding: 'utf8',
      timeout: READY_MS,
      ...(user ?? {}),
    },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status ?? init.signal}): ${init.stderr}`);
  }
  const port = await freePort();
  const logs: string[] = [];
  const child = spawnPostgres(dir, port, logs);
  const server = new PostgresServer(child, dir, port, logs);
  try {
    await waitReady(server.url(), child, logs);
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw error;
  }
  return server;
}

/** Starts the server of a paused PostgresServer again on the same port and directory. */
export async function restartPostgres(paused: PostgresServer): Promise<PostgresServer> {
  const logs: string[] = [];
  const child = spawnPostgres(paused.dir, paused.port, logs);
  const server = new PostgresServer(child, paused.dir, paused.port, logs);
  await waitReady(server.url(), child, logs);
  return server;
}
