import type { Migration } from './index.ts';

// Webhook deliveries are rows, written in the transaction of the event that calls for them, so a
// delivery outlives the instance that wrote it (a restart, a kill) and any instance can make it.
// A lane is one URL of one action; its rows go out oldest first (id is the order key: a write
// acknowledged before another began has the smaller id). A row is claimed for one attempt at a time
// (claimed_by, claimed_until: a claim left by a killed instance expires); a failed attempt stores
// when the next is due, so retries survive a restart. The row goes once its outcome is recorded.
export const migration205: Migration = {
  id: '205-webhook-outbox',
  sql: `
    CREATE TABLE webhook_outbox (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      org_id INTEGER NOT NULL,
      action_number INTEGER NOT NULL,
      url TEXT NOT NULL,
      payload TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at REAL NOT NULL,
      claimed_by TEXT,
      claimed_until REAL
    );
    CREATE INDEX webhook_outbox_by_lane ON webhook_outbox (org_id, action_number, url, id);
  `,
};
