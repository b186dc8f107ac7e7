import type { Migration } from './index.ts';

// Settings were kept under the caller's name, which is not unique: a service account named
// `admin` in one org set the default org of the key of every org, and accounts of the same name
// in two orgs (or one named like a key of --config, api-key-1) shared one row. They are kept
// under the principal's id now (apiKeys.ts). The row named admin stays the admin key's, which read
// it. The others are left behind: a service account uses one org, its default whatever the row
// said; a key of --config was named by its place in the file, which cannot be matched to a key
// here, so it falls back to its first org until it chooses again.
export const migration210: Migration = {
  id: '210-principal-settings',
  sql: `
    CREATE TABLE principal_settings (
      principal_id TEXT PRIMARY KEY,
      default_org TEXT NOT NULL
    );
    INSERT INTO principal_settings (principal_id, default_org)
      SELECT 'admin', default_org FROM user_settings WHERE principal = 'admin';
    DROP TABLE user_settings;
  `,
};
