import { GAP_MATCHED, GAPS_RECOUNTED } from '../listPositions.ts';
import { withTriggersReplaced } from './replacedTriggers.ts';

// An org's artifacts, a flow's and an org's of one repo are numbered in the order they list in
// (created_at, then seq; 1 for the oldest), so a page of any of them is a seek however deep it is
// (issue 27); these indexes replace the ones by time each list read before. The org's lists left
// out the artifacts of archived flows: their numbers are gaps.
//
// A change to an artifact's row behind the server's writes re-evaluates its trail and moves its
// version (migrations 003 and 203); the triggers now name the columns a change is about, so that
// numbering rows (this backfill, a row placed out of order) is not taken for one.
const CONTENT =
  'id, org_id, flow_id, trail_id, fingerprint, template_reference_name, filename, git_commit, repo_name, body, created_at, last_modified_at';

export const migration242 = withTriggersReplaced(
  '242-artifact-positions',
  [
    ['trail_version_on_artifact_update', 'artifacts'],
    ['trail_state_on_artifact_update', 'artifacts'],
  ],
  `
    CREATE TRIGGER trail_version_on_artifact_update AFTER UPDATE OF ${CONTENT} ON artifacts
      BEGIN UPDATE trails SET version = version + 1 WHERE id = NEW.trail_id; END;
    CREATE TRIGGER trail_state_on_artifact_update AFTER UPDATE OF ${CONTENT} ON artifacts
      BEGIN
        INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.trail_id);
        UPDATE trails SET compliance_state = NULL WHERE id = NEW.trail_id;
      END;
    ALTER TABLE artifacts ADD COLUMN flow_pos INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE artifacts ADD COLUMN org_pos INTEGER NOT NULL DEFAULT 0;
    -- 0 for an artifact without a repo.
    ALTER TABLE artifacts ADD COLUMN repo_pos INTEGER NOT NULL DEFAULT 0;
    UPDATE artifacts SET flow_pos = n.flow_pos, org_pos = n.org_pos, repo_pos = n.repo_pos
      FROM (SELECT seq, row_number() OVER (PARTITION BY flow_id ORDER BY created_at, seq) AS flow_pos,
                   row_number() OVER (PARTITION BY org_id ORDER BY created_at, seq) AS org_pos,
                   CASE WHEN repo_name IS NULL THEN 0
                        ELSE row_number() OVER (PARTITION BY org_id, repo_name ORDER BY created_at, seq) END AS repo_pos
              FROM artifacts) n
     WHERE artifacts.seq = n.seq;
    CREATE INDEX artifacts_by_org_pos ON artifacts (org_id, org_pos);
    CREATE INDEX artifacts_by_flow_pos ON artifacts (flow_id, flow_pos);
    CREATE INDEX artifacts_by_repo_pos ON artifacts (org_id, repo_name, repo_pos);
    DROP INDEX artifacts_by_org_created;
    DROP INDEX artifacts_by_flow_created;
    DROP INDEX artifacts_by_repo_created;
    INSERT INTO list_gaps (list, org_id, part, pos, listed_before)
      SELECT 'artifacts', a.org_id, '', a.org_pos, 0 FROM artifacts a JOIN flows f ON f.id = a.flow_id WHERE f.archived_at IS NOT NULL
      UNION ALL
      SELECT 'artifacts-repo', a.org_id, a.repo_name, a.repo_pos, 0 FROM artifacts a JOIN flows f ON f.id = a.flow_id
       WHERE f.archived_at IS NOT NULL AND a.repo_name IS NOT NULL;
    ${GAPS_RECOUNTED} WHERE list IN ('artifacts', 'artifacts-repo')) r WHERE ${GAP_MATCHED};
  `,
);
