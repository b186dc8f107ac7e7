import type { Statements } from './db.ts';

/** A caller's own settings, kept under its principal id (apiKeys.ts), never under its name. */
export interface UserSettingsStore {
  defaultOrg(principalId: string): Promise<string | undefined>;
  setDefaultOrg(principalId: string, org: string): Promise<void>;
}

export function userSettingsStore(sql: Statements): UserSettingsStore {
  return {
    async defaultOrg(principalId) {
      return (
        await sql.get<{ default_org: string }>(
          'SELECT default_org FROM principal_settings WHERE principal_id = ?',
          principalId,
        )
      )?.default_org;
    },
    async setDefaultOrg(principalId, org) {
      await sql.run(
        'INSERT INTO principal_settings (principal_id, default_org) VALUES (?, ?) ON CONFLICT (principal_id) DO UPDATE SET default_org = excluded.default_org',
        principalId,
        org,
      );
    },
  };
}
