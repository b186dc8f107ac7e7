// What the tests of pages read while others write share (issue 27): servers whose writes land
// inside the lists as well as at their front (on PostgreSQL two instances, one with its clock an
// hour behind), the database behind them, and walks of the lists repeated while writers run until
// each list had enough pages read while it changed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE, sharedPostgres, startServer, type TestServer } from './harness.ts';
import { postgresOracle, sqliteOracle, type Oracle } from './pageOracle.ts';

/** Pages of each list that must be read while it changed. */
const CHANGING_PAGES = 10;

export interface ServersUnderWrites {
  servers: TestServer[];
  oracle: Oracle;
  stop(): Promise<void>;
}

/** One SQLite server, or two PostgreSQL instances on one database, one with its clock an hour behind. */
export async function serversUnderWrites(database: string): Promise<ServersUnderWrites> {
  if (ENGINE === 'postgres') {
    const url = await (await sharedPostgres()).createDatabase(`${database}_${process.pid}`);
    const evidence = mkdtempSync(join(tmpdir(), 'cev-evidence-'));
    const args = ['--org', 'acme', '--database', url, '--evidence', evidence];
    const servers = [await startServer({ args }), await startServer({ args, clockShiftSeconds: -3600 })];
    const oracle = postgresOracle(url);
    return {
      servers,
      oracle,
      stop: async () => {
        await oracle.close();
        for (const server of servers) await server.stop();
        rmSync(evidence, { recursive: true, force: true });
      },
    };
  }
  const server = await startServer({ args: ['--org', 'acme'] });
  const oracle = sqliteOracle(server.dataDir);
  return {
    servers: [server],
    oracle,
    stop: async () => {
      await oracle.close();
      await server.stop();
    },
  };
}

/**
 * Two writers on each server (`writing` with a name of its own, until told to stop) while each list
 * is walked (`walked` answers how many of its pages were read while the list changed), again and
 * again until every list had CHANGING_PAGES such pages, at most for a minute.
 */
export async function walkedWhileWriting<List>(
  servers: readonly TestServer[],
  writing: (server: TestServer, name: string, stopped: () => boolean) => Promise<number>,
  lists: readonly List[],
  walked: (list: List) => Promise<number>,
): Promise<void> {
  let stopped = false;
  const writers = servers.flatMap((server, i) => [0, 1].map((j) => writing(server, `w${i}${j}`, () => stopped)));
  const whileChanging = lists.map(() => 0);
  const deadline = Date.now() + 60_000;
  try {
    while (whileChanging.some((pages) => pages < CHANGING_PAGES) && Date.now() < deadline)
      for (const [i, list] of lists.entries()) whileChanging[i] += await walked(list);
  } finally {
    stopped = true;
  }
  const written = await Promise.all(writers);
  assert.ok(
    whileChanging.every((pages) => pages >= CHANGING_PAGES),
    `each list had ${CHANGING_PAGES} pages read while it changed: ${JSON.stringify(whileChanging)}`,
  );
  assert.ok(
    written.every((count) => count > 0),
    `every writer wrote while the pages were read: ${JSON.stringify(written)}`,
  );
}
