// Where latest_state is kept (migration 203), read in the SQLite database file behind the server:
// the list shows the stored value, and a database from before the migration gets its states.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import type { Artifact, Flow, SearchResult } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint } from './fixtures.ts';

const TEMPLATE = 'version: 1\ntrail:\n  attestations:\n    - name: check\n      type: generic\n';

describe('flow latest_state stored in the database', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    for (const flow of ['done', 'open', 'empty']) await createFlow(server, 'acme', flow, TEMPLATE);
    for (const flow of ['done', 'open']) await beginTrail(server, 'acme', flow, 't1');
    assert.equal((await attest(server, 'acme', 'done', 't1', 'generic', { attestation_name: 'check' })).status, 201);
  });
  after(async () => {
    await server?.stop();
  });

  const listed = async (): Promise<Record<string, unknown>> =>
    Object.fromEntries(
      ((await server.get('/api/v2/flows/acme')).body as Flow[]).map((flow) => [flow.name, flow.latest_state]),
    );
  const withDatabase = <T>(work: (db: DatabaseSync) => T): T => {
    const db = new DatabaseSync(join(server.dataDir, 'cev.sqlite'));
    try {
      db.exec('PRAGMA busy_timeout = 5000');
      return work(db);
    } finally {
      db.close();
    }
  };
  const stored = (): Record<string, unknown> =>
    withDatabase((db) =>
      Object.fromEntries(
        db
          .prepare('SELECT name, latest_state FROM flows ORDER BY name')
          .all()
          .map((row) => [String(row.name), row.latest_state]),
      ),
    );

  it('lists the state stored when the trail was written, without evaluating it again', async () => {
    const expected = { done: 'COMPLIANT', empty: null, open: 'INCOMPLETE' };
    assert.deepEqual(await listed(), expected);
    assert.deepEqual(stored(), expected);
    withDatabase((db) => db.prepare("UPDATE flows SET latest_state = 'NON-COMPLIANT' WHERE name = 'open'").run());
    assert.equal((await listed()).open, 'NON-COMPLIANT', 'read from the column');
    assert.equal(
      (await server.get<Flow>('/api/v2/flows/acme/open')).body.latest_state,
      'NON-COMPLIANT',
      'the one flow read from the column too',
    );
    withDatabase((db) => db.prepare("UPDATE flows SET latest_state = 'INCOMPLETE' WHERE name = 'open'").run());
  });

  it('evaluates every trail of a database from before the migration', async () => {
    await server.stop({ keepData: true });
    // Back to the schema of migration 202: what 203 added goes (with 305's index on its column), the
    // triggers it replaced come back.
    withDatabase((db) => {
      for (const { name } of db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'trigger' AND (name LIKE '%state_on%' OR name = 'attestation_head')",
        )
        .all())
        db.exec(`DROP TRIGGER ${String(name)}`);
      db.exec(`DROP TABLE trails_to_evaluate;
               DROP TABLE attestation_heads;
               DROP INDEX attestations_unreadable;
               DROP INDEX artifacts_unreadable;
               DROP INDEX artifacts_by_trail_slot;
               DROP INDEX flows_by_activity_desc;
               DROP TRIGGER flow_activity_on_trail;
               DROP TRIGGER flow_activity_on_trail_update;
               CREATE TRIGGER flow_activity_on_trail AFTER INSERT ON trails
                 BEGIN UPDATE flows SET latest_activity_at = (SELECT max(last_modified_at) FROM trails WHERE flow_id = NEW.flow_id) WHERE id = NEW.flow_id; END;
               CREATE TRIGGER flow_activity_on_trail_update AFTER UPDATE OF last_modified_at ON trails
                 BEGIN UPDATE flows SET latest_activity_at = (SELECT max(last_modified_at) FROM trails WHERE flow_id = NEW.flow_id) WHERE id = NEW.flow_id; END;
               DROP INDEX trails_by_state;
               DELETE FROM schema_migrations WHERE id = '305-trails-by-state';
               ALTER TABLE trails DROP COLUMN compliance_state;
               ALTER TABLE flows DROP COLUMN latest_state;
               DELETE FROM schema_migrations WHERE id = '203-trail-states';`);
    });
    server = await startServer({ args: ['--org', 'acme'], dataDir: server.dataDir });
    const expected = { done: 'COMPLIANT', empty: null, open: 'INCOMPLETE' };
    assert.deepEqual(stored(), expected);
    assert.deepEqual(await listed(), expected);
  });

  it("lists artifacts and search results with their trail's stored state", async () => {
    await createFlow(server, 'acme', 'shipped', TEMPLATE);
    await attestArtifact(server, 'acme', 'shipped', {
      fingerprint: fingerprint('shipped'),
      filename: 'cli',
      git_commit: commit('shipped'),
      trail_name: 't1',
      template_reference_name: 'cli',
    });
    const shown = async (): Promise<[unknown, unknown]> => [
      ((await server.get('/api/v2/artifacts/acme?flow_name=shipped')).body as Artifact[])[0].state,
      ((await server.get(`/api/v2/search/acme/sha/${fingerprint('shipped')}`)).body as SearchResult).artifacts[0]
        .compliance_state,
    ];
    assert.deepEqual(await shown(), ['INCOMPLETE', 'INCOMPLETE']);
    withDatabase((db) =>
      db
        .prepare(
          "UPDATE trails SET compliance_state = 'NON-COMPLIANT' WHERE flow_id = (SELECT id FROM flows WHERE name = 'shipped')",
        )
        .run(),
    );
    assert.deepEqual(await shown(), ['NON-COMPLIANT', 'NON-COMPLIANT'], 'read from the column');
  });
});
