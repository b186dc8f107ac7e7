import type { Migration } from './index.ts';

// A delivery names its target, the receiving server of its URL (host and port), so that an org's
// deliveries to one server, and an org's deliveries altogether, are held to a few at a time and a
// slow or dead receiver holds back only its own (delivery/deliverer.ts). A row stored before
// names its URL as its target: never shared with another row's URL, so it is held back no more
// than it was (one attempt per lane at a time), and it leaves with its retries.
export const migration230: Migration = {
  id: '230-webhook-targets',
  sql: `
    ALTER TABLE webhook_outbox ADD COLUMN target TEXT NOT NULL DEFAULT '';
    UPDATE webhook_outbox SET target = url;
  `,
};
