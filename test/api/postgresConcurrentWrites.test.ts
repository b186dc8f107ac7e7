// Concurrent transactions on PostgreSQL (store/db.ts TransactionOptions): their writes travel with
// their values written in, several transactions' writes in one commit. Each value must come back
// as a parameter would have stored it, a transaction whose write fails at commit must fail alone,
// and none may commit while a transaction holding the whole write lock runs.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '../../server/api/store/postgres/database.ts';
import type { Param } from '../../server/api/store/db.ts';
import { startServer, type TestServer } from './harness.ts';
import type { Attestation, Trail } from './answers.ts';
import { attest, createFlow } from './fixtures.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';
import { waitFor } from '../support/wait.ts';

/** Text that quoting could get wrong: quotes, backslashes, escape-string and parameter look-alikes, non-ASCII. */
const AWKWARD = [
  "it's",
  "''",
  '\\',
  "E'\\x41'",
  '\\x41',
  '$1 ? $$ ?? ;',
  "'); DROP TABLE kept; --",
  'é ü 中文 🚀',
  '',
  ' leading and trailing ',
  'line\nbreak\ttab',
];

describe('PostgreSQL: concurrent transactions', function () {
  this.timeout(60_000);
  let postgres: PostgresServer;
  let database: PostgresDatabase;

  before(async () => {
    postgres = await startPostgres();
    database = new PostgresDatabase(await postgres.createDatabase('writes'), 8);
    await database.pool.query(
      'CREATE TABLE kept (k TEXT PRIMARY KEY, t TEXT, d DOUBLE PRECISION, i BIGINT, b BYTEA, n TEXT)',
    );
  });
  after(async () => {
    await database?.close();
    await postgres?.stop();
  });

  const insert = 'INSERT INTO kept (k, t, d, i, b, n) VALUES (?, ?, ?, ?, ?, ?)';

  it('stores each value written in exactly as the same value sent as a parameter', async () => {
    const numbers = [0.1 + 0.2, 1e21, -1.5e-7, 1764000000.123456, 0, 2 ** 53 - 1];
    const rows: Param[][] = AWKWARD.map((text, i) => [
      text,
      numbers[i % numbers.length],
      i * 1_000_000_007,
      new Uint8Array([0, 39, 92, 255, i]),
      null,
    ]);
    await database.transaction(async () => {
      for (const [i, row] of rows.entries()) await database.statements.write(insert, `param-${i}`, ...row);
    });
    await Promise.all(
      rows.map((row, i) =>
        database.transaction(() => database.statements.write(insert, `literal-${i}`, ...row), { concurrent: true }),
      ),
    );
    const read = async (prefix: string) =>
      (
        await database.pool.query<Record<string, unknown>>(
          `SELECT t, d, i, encode(b, 'hex') AS b, n FROM kept WHERE k LIKE $1 ORDER BY length(k), k`,
          [`${prefix}-%`],
        )
      ).rows;
    const byParameter = await read('param');
    assert.equal(byParameter.length, rows.length);
    assert.deepEqual(await read('literal'), byParameter);
    assert.deepEqual(
      byParameter.map((row) => row.t),
      AWKWARD,
    );
  });

  it('fails only the transaction whose write fails at commit; those committed with it are kept', async () => {
    await database.pool.query(`INSERT INTO kept (k) VALUES ('taken')`);
    const keys = Array.from({ length: 10 }, (_, i) => (i === 4 ? 'taken' : `group-${i}`));
    const outcomes = await Promise.allSettled(
      keys.map((key) =>
        database.transaction(() => database.statements.write(insert, key, 'x', 1, 1, null, null), {
          concurrent: true,
        }),
      ),
    );
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      keys.map((key) => (key === 'taken' ? 'rejected' : 'fulfilled')),
    );
    const refused = outcomes[4] as PromiseRejectedResult;
    assert.equal((refused.reason as { code?: string }).code, '23505');
    const stored = await database.pool.query<{ n: number }>(`SELECT count(*) AS n FROM kept WHERE k LIKE 'group-%'`);
    assert.equal(stored.rows[0].n, 9);
  });

  it('refuses a read after a write, a count of a write and a NUL character, writing nothing', async () => {
    await assert.rejects(
      database.transaction(
        async () => {
          await database.statements.write(insert, 'read-after', 'x', 1, 1, null, null);
          await database.statements.get('SELECT 1');
        },
        { concurrent: true },
      ),
      /read after a write/,
    );
    await assert.rejects(
      database.transaction(() => database.statements.run(insert, 'counted', 'x', 1, 1, null, null), {
        concurrent: true,
      }),
      /write\(\)/,
    );
    await assert.rejects(
      database.transaction(() => database.statements.write(insert, 'nul', 'a\0b', 1, 1, null, null), {
        concurrent: true,
      }),
      (error: { code?: string }) => error.code === '22021',
    );
    const stored = await database.pool.query(`SELECT k FROM kept WHERE k IN ('read-after', 'counted', 'nul')`);
    assert.equal(stored.rowCount, 0);
  });

  it('answers reads batched in one turn each with its own rows, as alone; a read that fails fails alone', async () => {
    await database.transaction(async () => {
      for (const [i, text] of AWKWARD.entries())
        await database.statements.write(insert, `batched-${i}`, text, i, i, null, null);
    });
    const select = "SELECT k, t, i FROM kept WHERE k LIKE 'batched-%' AND t = ? AND i >= ? ORDER BY k";
    const alone = await Promise.all(AWKWARD.map((text) => database.statements.all(select, text, 0)));
    assert.equal(alone.flat().length, AWKWARD.length);
    const failure = (read: Promise<unknown>) =>
      read.then(
        () => 'answered',
        (error: unknown) => (error as { code?: string }).code,
      );
    const [batched, unstorable, unreadable] = await Promise.all([
      Promise.all(AWKWARD.map((text) => database.statements.allBatched(select, text, 0))),
      failure(database.statements.allBatched(select, 'nul \0', 0)),
      failure(database.statements.allBatched(select, 'x', 'not a number')),
    ]);
    assert.deepEqual(batched, alone);
    assert.equal(unstorable, '22021');
    assert.equal(unreadable, '22P02');
    // Once more on connections that have the statement prepared.
    assert.deepEqual(await Promise.all(AWKWARD.map((text) => database.statements.allBatched(select, text, 0))), alone);
  });

  it('answers a named statement after a migration changed its table under it', async () => {
    await database.pool.query(`CREATE TABLE reshaped (k TEXT PRIMARY KEY)`);
    await database.pool.query(`INSERT INTO reshaped (k) VALUES ('one')`);
    const read = () => database.statements.all('SELECT * FROM reshaped WHERE k = ?', 'one');
    // Sequential reads reuse the one idle connection, which now holds the statement planned.
    assert.deepEqual(await read(), [{ k: 'one' }]);
    assert.deepEqual(await read(), [{ k: 'one' }]);
    await database.pool.query(`ALTER TABLE reshaped ADD COLUMN added TEXT`);
    assert.deepEqual(await read(), [{ k: 'one', added: null }]);
    assert.deepEqual(await read(), [{ k: 'one', added: null }]);
  });

  it('commits nothing while a transaction holding the whole write lock runs', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const exclusive = database.transaction(async () => {
      await database.statements.write(insert, 'exclusive', 'x', 1, 1, null, null);
      locked();
      await held;
    });
    await lockTaken;
    let committed = false;
    const concurrent = database
      .transaction(() => database.statements.write(insert, 'waiting', 'x', 1, 1, null, null), { concurrent: true })
      .then(() => (committed = true));
    // The concurrent commit waits for the write lock held shared, behind the one holding it whole.
    await waitFor(
      async () =>
        (
          await database.pool.query(
            `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ShareLock' AND NOT granted`,
          )
        ).rowCount === 1,
      'the concurrent commit waiting for the write lock',
      10_000,
    );
    assert.equal(committed, false);
    release();
    await Promise.all([exclusive, concurrent]);
    const stored = await database.pool.query(`SELECT k FROM kept WHERE k IN ('exclusive', 'waiting') ORDER BY k`);
    assert.deepEqual(
      stored.rows.map((row: { k: string }) => row.k),
      ['exclusive', 'waiting'],
    );
  });
});

describe('PostgreSQL: concurrent attestations over two instances', function () {
  this.timeout(60_000);
  let postgres: PostgresServer;
  let evidence: string;
  const instances: TestServer[] = [];

  before(async () => {
    postgres = await startPostgres();
    const url = await postgres.createDatabase('team');
    evidence = mkdtempSync(join(tmpdir(), 'cev-evidence-'));
    for (let i = 0; i < 2; i++)
      instances.push(await startServer({ args: ['--org', 'acme', '--database', url, '--evidence', evidence] }));
  });
  after(async () => {
    for (const instance of instances) await instance.stop().catch(() => undefined);
    await postgres?.stop();
    rmSync(evidence, { recursive: true, force: true });
  });

  it('records every one of 60 attestations to one trail, each with its event and its text as sent', async () => {
    const [a, b] = instances as [TestServer, TestServer];
    assert.equal((await createFlow(a, 'acme', 'busy')).status, 201);
    const begun = await b.multipart('PUT', '/api/v2/trails/acme/busy', { data_json: JSON.stringify({ name: 'one' }) });
    assert.equal(begun.status, 201);
    const names = Array.from({ length: 60 }, (_, i) => `check-${i}`);
    const descriptions = names.map((_, i) => `${AWKWARD[i % AWKWARD.length]}#${i}`);
    const replies = await Promise.all(
      names.map((name, i) =>
        attest(i % 2 === 0 ? a : b, 'acme', 'busy', 'one', 'generic', {
          attestation_name: name,
          description: descriptions[i],
          is_compliant: true,
        }),
      ),
    );
    assert.deepEqual(
      replies.map((reply) => reply.status),
      names.map(() => 201),
    );
    const trail = await a.get('/api/v2/trails/acme/busy/one');
    assert.equal(trail.status, 200);
    const reported = (trail.body as Trail).events
      .filter((event) => event.type === 'trail_attestation_reported')
      .map((event) => event.template_reference_name);
    assert.deepEqual([...reported].sort(), [...names].sort());
    for (const [i, name] of names.entries()) {
      const read = await (i % 2 === 0 ? b : a).get(`/api/v2/attestations/acme/busy/trail/one/${name}`);
      assert.equal(read.status, 200, name);
      assert.equal((read.body as Attestation[])[0].description, descriptions[i]);
    }
  });
});
