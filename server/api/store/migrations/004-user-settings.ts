import type { Migration } from './index.ts';

// Per-caller settings (the default org of `PUT /user/{org}`), keyed by the caller's name.
export const migration004: Migration = {
  id: '004-user-settings',
  sql: `
    CREATE TABLE user_settings (
      principal TEXT PRIMARY KEY,
      default_org TEXT NOT NULL
    );
  `,
};
