// Migrations 240-244 on a SQLite database that already holds the rows of every paged list (the
// story of pageOracle.ts, written before the migrations existed, as far as the file can tell: their
// tables, columns, indexes and triggers taken back out behind the server). Once migrated, every page
// is the OFFSET answer, and numbering the rows changed no trail's stored state or version.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { startServer, type TestServer } from './harness.ts';
import { everyPageIsTheOffsetAnswer, sqliteOracle, storyLists, writeStory, type StoryTimes } from './pageOracle.ts';

/** The database as it was before migration 240: what 240-244 add taken out, what they replace put back. */
const BEFORE_240 = `
  DROP TABLE list_gaps;
  DROP INDEX trails_by_flow_pos;
  DROP INDEX trails_by_org_pos;
  ALTER TABLE trails DROP COLUMN flow_pos;
  ALTER TABLE trails DROP COLUMN org_pos;
  CREATE INDEX trails_by_org ON trails (org_id, created_at);
  DROP TRIGGER trail_version_on_artifact_update;
  DROP TRIGGER trail_state_on_artifact_update;
  CREATE TRIGGER trail_version_on_artifact_update AFTER UPDATE ON artifacts
    BEGIN UPDATE trails SET version = version + 1 WHERE id = NEW.trail_id; END;
  CREATE TRIGGER trail_state_on_artifact_update AFTER UPDATE ON artifacts
    BEGIN
      INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.trail_id);
      UPDATE trails SET compliance_state = NULL WHERE id = NEW.trail_id;
    END;
  DROP INDEX artifacts_by_org_pos;
  DROP INDEX artifacts_by_flow_pos;
  DROP INDEX artifacts_by_repo_pos;
  ALTER TABLE artifacts DROP COLUMN flow_pos;
  ALTER TABLE artifacts DROP COLUMN org_pos;
  ALTER TABLE artifacts DROP COLUMN repo_pos;
  CREATE INDEX artifacts_by_org_created ON artifacts (org_id, created_at, seq);
  CREATE INDEX artifacts_by_flow_created ON artifacts (flow_id, created_at, seq);
  CREATE INDEX artifacts_by_repo_created ON artifacts (org_id, repo_name, created_at, seq);
  DROP TRIGGER trail_state_on_attestation_update;
  CREATE TRIGGER trail_state_on_attestation_update AFTER UPDATE ON attestations
    BEGIN
      INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.trail_id);
      UPDATE trails SET compliance_state = NULL WHERE id = NEW.trail_id;
    END;
  DROP INDEX attestations_by_flow_pos;
  ALTER TABLE attestations DROP COLUMN flow_pos;
  DROP TABLE attestation_counts;
  DROP INDEX environment_events_by_pos;
  ALTER TABLE environment_events DROP COLUMN env_pos;
  ALTER TABLE snapshots DROP COLUMN events_through;
  DELETE FROM schema_migrations WHERE id IN
    ('240-list-gaps', '241-trail-positions', '242-artifact-positions', '243-attestation-positions', '244-event-positions');
`;

describe('migrations 240-244 on a SQLite database with every paged list', function () {
  this.timeout(120_000);
  let server: TestServer | undefined;
  let times: StoryTimes;
  let kept: unknown[];

  before(async () => {
    const restarted = async (clockShiftSeconds?: number): Promise<TestServer> => {
      await server?.stop({ keepData: true });
      server = await startServer({ args: ['--org', 'acme'], dataDir: server?.dataDir, clockShiftSeconds });
      return server;
    };
    times = await writeStory(
      () => restarted(),
      () => restarted(-3600),
    );
    await server!.stop({ keepData: true });
    const db = new DatabaseSync(join(server!.dataDir, 'cev.sqlite'));
    try {
      kept = db.prepare('SELECT id, compliance_state, version FROM trails ORDER BY id').all();
      db.exec(BEFORE_240);
    } finally {
      db.close();
    }
    server = await startServer({ args: ['--org', 'acme'], dataDir: server!.dataDir });
  });
  after(async () => {
    await server?.stop();
  });

  it('numbers the rows already there: every page is the OFFSET answer', async () => {
    const oracle = sqliteOracle(server!.dataDir);
    try {
      for (const list of storyLists(times)) await everyPageIsTheOffsetAnswer(server!, oracle, list, [1, 4]);
      assert.deepEqual(
        await oracle.rows('SELECT id, compliance_state, version FROM trails ORDER BY id', []),
        kept,
        'no trail state or version moved',
      );
    } finally {
      await oracle.close();
    }
  });
});
