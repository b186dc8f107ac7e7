import type { Migration } from './index.ts';

// Policies and actions are found through indexes (issue 9). The action list reads live actions in
// number order from their own index instead of stepping over deleted ones. What an action watches
// (its environments and flows) and which controls each policy version names in for_control are
// kept as rows beside the JSON they come from, written with it by the store, so the actions an
// event triggers, the actions a rename touches and the policies referencing a control are index
// lookups instead of a pass over every action or policy of the org. Existing rows are copied in
// here; JSON that cannot be read contributes nothing, as it matched nothing before.
export const migration204: Migration = {
  id: '204-policy-and-action-lists',
  sql: `
    CREATE INDEX actions_live ON actions (org_id, number) WHERE deleted_at IS NULL;
    CREATE TABLE action_watches (
      action_id INTEGER NOT NULL REFERENCES actions(id),
      org_id INTEGER NOT NULL,
      kind TEXT NOT NULL,
      name TEXT NOT NULL
    );
    CREATE INDEX action_watches_by_name ON action_watches (org_id, kind, name);
    CREATE INDEX action_watches_by_action ON action_watches (action_id);
    INSERT INTO action_watches (action_id, org_id, kind, name)
      SELECT a.id, a.org_id, 'environment', w.value
        FROM actions a, json_each(CASE WHEN json_valid(a.environments) THEN a.environments ELSE '[]' END) w
       WHERE a.deleted_at IS NULL
      UNION ALL
      SELECT a.id, a.org_id, 'flow', w.value
        FROM actions a, json_each(CASE WHEN json_valid(a.flows) THEN a.flows ELSE '[]' END) w
       WHERE a.deleted_at IS NULL;
    CREATE TABLE policy_controls (
      policy_id INTEGER NOT NULL REFERENCES policies(id),
      version INTEGER NOT NULL,
      identifier TEXT NOT NULL
    );
    CREATE INDEX policy_controls_by_identifier ON policy_controls (identifier, policy_id, version);
    INSERT INTO policy_controls (policy_id, version, identifier)
      SELECT v.policy_id, v.version, c.value
        FROM policy_versions v, json_each(CASE WHEN json_valid(v.controls) THEN v.controls ELSE '[]' END) c;
  `,
};
