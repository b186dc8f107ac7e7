import type { Statements } from './db.ts';

export interface UserSettingsStore {
  defaultOrg(principal: string): Promise<string | undefined>;
  setDefaultOrg(principal: string, org: string): Promise<void>;
}

export function sqliteUserSettingsStore(sql: Statements): UserSettingsStore {
  return {
    async defaultOrg(principal) {
      return (
        await sql.get<{ default_org: string }>('SELECT default_org FROM user_settings WHERE principal = ?', principal)
      )?.default_org;
    },
    async setDefaultOrg(principal, org) {
      await sql.run(
        'INSERT INTO user_settings (principal, default_org) VALUES (?, ?) ON CONFLICT (principal) DO UPDATE SET default_org = excluded.default_org',
        principal,
        org,
      );
    },
  };
}
