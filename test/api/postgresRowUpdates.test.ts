// How often a write updates its trail's and its flow's rows on PostgreSQL (migration 206): each
// update of a row is a new version of it, and a busy pipeline's trail and flow rows are the
// hottest of all. Counted by a trigger the test adds, which logs every update of either table.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startServer, type TestServer } from './harness.ts';
import { attest, createFlow } from './fixtures.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';

const TEMPLATE = 'version: 1\ntrail:\n  attestations:\n    - name: check\n      type: generic\n';

describe('PostgreSQL: updates of a trail and its flow per write', function () {
  this.timeout(60_000);
  let postgres: PostgresServer;
  let database: pg.Client;
  let evidence: string;
  let server: TestServer;

  before(async () => {
    postgres = await startPostgres();
    const url = await postgres.createDatabase('updates');
    evidence = mkdtempSync(join(tmpdir(), 'cev-evidence-'));
    server = await startServer({ args: ['--org', 'acme', '--database', url, '--evidence', evidence] });
    database = new pg.Client({ connectionString: url });
    await database.connect();
    await database.query(`
      CREATE TABLE row_updates (table_name TEXT NOT NULL, id TEXT NOT NULL);
      CREATE FUNCTION row_update_logged() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO row_updates VALUES (TG_TABLE_NAME, NEW.id); RETURN NULL; END $$;
      CREATE TRIGGER trail_update_logged AFTER UPDATE ON trails FOR EACH ROW EXECUTE FUNCTION row_update_logged();
      CREATE TRIGGER flow_update_logged AFTER UPDATE ON flows FOR EACH ROW EXECUTE FUNCTION row_update_logged();`);
  });
  after(async () => {
    await database?.end();
    await server?.stop();
    await postgres?.stop();
    rmSync(evidence, { recursive: true, force: true });
  });

  /** Updates of each table logged since the last call. */
  const updates = async (): Promise<Record<string, number>> => {
    const rows = (
      await database.query<{ table_name: string; n: number }>('DELETE FROM row_updates RETURNING table_name, 1 AS n')
    ).rows;
    const counts: Record<string, number> = { flows: 0, trails: 0 };
    for (const row of rows) counts[row.table_name] += 1;
    return counts;
  };

  it('updates the trail once per attestation and once per commit, the flow once per commit', async () => {
    await createFlow(server, 'acme', 'busy', TEMPLATE);
    const begun = await server.multipart('PUT', '/api/v2/trails/acme/busy', {
      data_json: JSON.stringify({ name: 'one' }),
    });
    assert.equal(begun.status, 201);
    await updates();
    // One at a time: each attestation commits alone, its activity moved, then its version and state.
    for (let i = 0; i < 5; i++)
      assert.equal((await attest(server, 'acme', 'busy', 'one', 'generic', { attestation_name: 'check' })).status, 201);
    assert.deepEqual(await updates(), { flows: 5, trails: 10 });
    // Together: each moves its trail's activity; each commit evaluates the trail once.
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => attest(server, 'acme', 'busy', 'one', 'generic', { attestation_name: 'check' })),
    );
    assert.deepEqual(
      replies.map((reply) => reply.status),
      replies.map(() => 201),
    );
    const together = await updates();
    assert.ok(together.trails <= 30 + together.flows, JSON.stringify(together));
    assert.ok(together.flows >= 1 && together.flows <= 30, JSON.stringify(together));
  });
});
