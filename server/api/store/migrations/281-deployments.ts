import type { Migration } from './index.ts';

// Deployments (reference §8.4: /deployments, an environment's and a repo's deployments, their
// frequency and statistics): a deployment is an artifact starting to run in an environment, which
// the environment's `started` events already record. Each is numbered as it is recorded, within its
// environment, its org and each repo its provenance names (1 for the oldest), so a page of any of
// the lists is a seek however deep it is (issue 27's positions). The numbers follow the order the
// events were recorded in; a logical environment's starts are its physical environments' again,
// so they are numbered in their environment only, not in the org's or a repo's list.
//
// Recorded by a trigger on the event, so that every start is one on both engines whatever writes
// it; the snapshot's transaction holds the write lock whole, so the greatest number plus one is
// the next.
export const migration281: Migration = {
  id: '281-deployments',
  sql: `
    CREATE TABLE deployments (
      event_id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL,
      environment_id INTEGER NOT NULL,
      env_pos INTEGER NOT NULL,
      org_pos INTEGER,
      deployed_at REAL NOT NULL,
      fingerprint TEXT NOT NULL
    );
    CREATE INDEX deployments_by_env_pos ON deployments (environment_id, env_pos);
    CREATE INDEX deployments_by_org_pos ON deployments (org_id, org_pos);
    CREATE INDEX deployments_by_fingerprint ON deployments (environment_id, fingerprint, env_pos);
    CREATE INDEX deployments_by_time ON deployments (environment_id, deployed_at);
    CREATE TABLE deployment_repos (
      org_id INTEGER NOT NULL,
      repo_name TEXT NOT NULL,
      repo_pos INTEGER NOT NULL,
      event_id INTEGER NOT NULL,
      PRIMARY KEY (org_id, repo_name, repo_pos)
    );
    INSERT INTO deployments (event_id, org_id, environment_id, env_pos, org_pos, deployed_at, fingerprint)
      SELECT ev.id, en.org_id, ev.environment_id,
             row_number() OVER (PARTITION BY ev.environment_id ORDER BY ev.env_pos, ev.id),
             CASE WHEN en.type = 'logical' THEN NULL
                  ELSE row_number() OVER (PARTITION BY en.org_id, en.type = 'logical' ORDER BY ev.reported_at, ev.id) END,
             ev.reported_at, ev.fingerprint
        FROM environment_events ev JOIN environments en ON en.id = ev.environment_id
       WHERE ev.type = 'started';
    INSERT INTO deployment_repos (org_id, repo_name, repo_pos, event_id)
      SELECT d.org_id, r.value, row_number() OVER (PARTITION BY d.org_id, r.value ORDER BY d.org_pos), d.event_id
        FROM deployments d JOIN environment_events ev ON ev.id = d.event_id, json_each(ev.repo_names) r
       WHERE d.org_pos IS NOT NULL;
    CREATE TRIGGER deployment_recorded AFTER INSERT ON environment_events WHEN NEW.type = 'started'
      BEGIN
        INSERT INTO deployments (event_id, org_id, environment_id, env_pos, org_pos, deployed_at, fingerprint)
          SELECT NEW.id, e.org_id, e.id,
                 coalesce((SELECT max(env_pos) FROM deployments WHERE environment_id = e.id), 0) + 1,
                 CASE WHEN e.type = 'logical' THEN NULL
                      ELSE coalesce((SELECT max(org_pos) FROM deployments WHERE org_id = e.org_id), 0) + 1 END,
                 NEW.reported_at, NEW.fingerprint
            FROM environments e WHERE e.id = NEW.environment_id;
        INSERT INTO deployment_repos (org_id, repo_name, repo_pos, event_id)
          SELECT e.org_id, r.value,
                 coalesce((SELECT max(repo_pos) FROM deployment_repos WHERE org_id = e.org_id AND repo_name = r.value), 0) + 1,
                 NEW.id
            FROM environments e, json_each(NEW.repo_names) r
           WHERE e.id = NEW.environment_id AND e.type <> 'logical';
      END;
  `,
};
