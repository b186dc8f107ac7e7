import type { Migration } from './index.ts';

// The membership audit log is filtered by role (reference §8.4: GET /membership-audit-log/{org}
// takes `role`): each event keeps the privilege its account had once the event happened. For the
// events already kept, that is the privilege the event itself or the latest event of the account
// before it names (account creations and changes name it).
export const migration282: Migration = {
  id: '282-membership-roles',
  sql: `
    ALTER TABLE membership_events ADD COLUMN role TEXT;
    UPDATE membership_events SET role = (
      SELECT json_extract(e.data, '$.privilege') FROM membership_events e
       WHERE e.org_id = membership_events.org_id AND e.account = membership_events.account AND e.id <= membership_events.id
         AND json_valid(e.data) AND json_extract(e.data, '$.privilege') IS NOT NULL
       ORDER BY e.id DESC LIMIT 1);
  `,
};
