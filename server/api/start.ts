// Starting and stopping the local server: data directory, lock, store, orgs, keys, listen.
import { accessSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { readyLine } from '../../shared/readyLine.ts';
import { buildApp } from './http/app.ts';
import type { Deliverer } from './delivery/deliverer.ts';
import { startDelivering } from './delivery/notifications.ts';
import { evaluationPool, type Evaluations } from './evaluation/pool.ts';
import { watchFreeSpace, type FreeSpaceWatch } from './freeSpace.ts';
import { newApiKey } from './apiKeys.ts';
import { nowSeconds } from './clock.ts';
import { lockDataDir } from './lock.ts';
import { PortInUseError, UsageError } from './usageError.ts';
import type { ConfiguredKey, ServeOptions } from './options.ts';
import { openStore, type Store } from './store/index.ts';

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  /** Stops accepting, finishes in-flight requests, closes the store, releases the lock. */
  close(): Promise<void>;
}

function prepareDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.R_OK | constants.W_OK);
  } catch (error) {
    throw new UsageError(
      `the data directory ${dataDir} is not usable (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

/**
 * The admin key: --api-key, else the one kept in the data directory, else a new one. A new key is
 * kept and printed by `announce`, once the server listens: a start that fails (a port in use)
 * leaves no key behind that was shown "only this once" and never served.
 */
function adminKeyOf(options: ServeOptions, say: (line: string) => void): { key: string; announce(): void } {
  if (options.apiKey !== undefined) return { key: options.apiKey, announce() {} };
  const key = newApiKey();
  if (options.dataDir === undefined)
    return { key, announce: () => say(`Admin API key for this in-memory server: ${key}`) };
  const file = join(options.dataDir, 'admin-key');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept !== '') return { key: kept, announce() {} };
  } catch {
    // No key kept yet: the new one.
  }
  return {
    key,
    announce() {
      writeFileSync(file, `${key}\n`, { mode: 0o600 });
      say(`Generated an admin API key (kept in ${file}; shown only this once): ${key}`);
    },
  };
}

/** The database URL without its password, for messages. */
function redactedUrl(text: string): string {
  const url = new URL(text);
  if (url.password !== '') url.password = '***';
  return url.toString();
}

function firstLine(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return firstLine(error.errors[0]);
  const message =
    error instanceof Error ? error.message || ((error as { code?: string }).code ?? error.name) : String(error);
  return message.split('\n')[0];
}

function listenUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startServer(options: ServeOptions, say: (line: string) => void): Promise<RunningServer> {
  let release = (): void => {};
  if (options.dataDir !== undefined) {
    prepareDataDir(options.dataDir);
    release = lockDataDir(options.dataDir);
  }
  let store: Store | undefined;
  let space: FreeSpaceWatch | undefined;
  let evaluations: Evaluations | undefined;
  let deliverer: Deliverer | undefined;
  try {
    try {
      store = await openStore({
        dataDir: options.dataDir,
        databaseUrl: options.databaseUrl,
        evidenceDir: options.evidenceDir,
      });
    } catch (error) {
      const where =
        options.databaseUrl !== undefined
          ? `at ${redactedUrl(options.databaseUrl)}`
          : `in ${options.dataDir ?? 'memory'}`;
      throw new UsageError(`cannot open the database ${where}: ${firstLine(error)}`);
    }
    const openedStore = store;
    const now = nowSeconds();
    const orgNames = new Set(options.orgs.map((org) => org.name));
    await openedStore.transaction(async () => {
      for (const org of options.orgs) await openedStore.orgs.ensure(org.name, org.features, now);
      for (const key of options.apiKeys) {
        if (key.orgs === 'all') continue;
        for (const name of key.orgs)
          if (!orgNames.has(name)) await openedStore.orgs.ensure(name, { controls: true }, now);
      }
    });
    const admin = adminKeyOf(options, say);
    const adminKey: ConfiguredKey = { key: admin.key, orgs: 'all', role: 'admin' };
    let publicUrl = options.publicUrl ?? '';
    const written = [options.dataDir, options.evidenceDir].filter((dir) => dir !== undefined);
    space =
      written.length === 0 || options.minFreeMb === 0 ? undefined : watchFreeSpace(written, options.minFreeMb, say);
    evaluations = evaluationPool(options.evaluationBudget);
    deliverer = startDelivering(openedStore, options.allowPrivateWebhooks);
    const app = await buildApp({
      context: {
        store: openedStore,
        evaluations,
        deliverer,
        publicUrl: () => publicUrl,
        freeSpaceWarning: space?.check,
        allowPrivateWebhooks: options.allowPrivateWebhooks,
      },
      configuredKeys: [adminKey, ...options.apiKeys],
    });
    try {
      await app.listen({ host: options.host, port: options.port });
    } catch (error) {
      await app.close();
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new PortInUseError(options.host, options.port, options.portFrom);
      throw new UsageError(
        `cannot listen on ${options.host}:${options.port} (${code ?? (error instanceof Error ? error.message : String(error))})`,
      );
    }
    admin.announce();
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : options.port;
    const url = listenUrl(options.host, port);
    if (publicUrl === '') publicUrl = url;
    say(
      readyLine(
        url,
        `orgs: ${(await openedStore.orgs.all()).map((org) => org.name).join(', ')}; data: ${options.databaseUrl !== undefined ? redactedUrl(options.databaseUrl) : (options.dataDir ?? 'in memory')}`,
      ),
    );
    let closing: Promise<void> | undefined;
    return {
      url,
      app,
      close() {
        closing ??= (async () => {
          space?.close();
          await app.close();
          // After the requests that may wake it, before the store its claims are given back to.
          await deliverer?.close();
          await evaluations?.close();
          await openedStore.close();
          release();
        })();
        return closing;
      },
    };
  } catch (error) {
    space?.close();
    await deliverer?.close();
    await evaluations?.close();
    await store?.close();
    release();
    throw error;
  }
}
