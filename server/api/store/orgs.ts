import type { Statements } from './db.ts';

export interface OrgFeatures {
  controls: boolean;
}

export interface Org {
  id: number;
  name: string;
  features: OrgFeatures;
  createdAt: number;
}

export interface OrgStore {
  /** Creates the org if missing and sets its features. */
  ensure(name: string, features: OrgFeatures, now: number): Promise<Org>;
  byName(name: string): Promise<Org | undefined>;
  all(): Promise<Org[]>;
}

interface OrgRow {
  id: number;
  name: string;
  features: string;
  created_at: number;
  [column: string]: unknown;
}

function toOrg(row: OrgRow): Org {
  const features = JSON.parse(row.features) as Partial<OrgFeatures>;
  return {
    id: row.id,
    name: row.name,
    features: { controls: features.controls !== false },
    createdAt: Number(row.created_at),
  };
}

export function orgStore(sql: Statements): OrgStore {
  // Every request looks its org up; orgs change only through ensure(), so they are kept in memory.
  const byName = new Map<string, Org>();
  return {
    async ensure(name, features, now) {
      byName.delete(name);
      await sql.run(
        'INSERT INTO orgs (name, features, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET features = excluded.features',
        name,
        JSON.stringify(features),
        now,
      );
      return toOrg((await sql.get<OrgRow>('SELECT * FROM orgs WHERE name = ?', name))!);
    },
    async byName(name) {
      const known = byName.get(name);
      if (known !== undefined) return known;
      const row = await sql.get<OrgRow>('SELECT * FROM orgs WHERE name = ?', name);
      if (row === undefined) return undefined;
      const org = toOrg(row);
      byName.set(name, org);
      return org;
    },
    async all() {
      return (await sql.all<OrgRow>('SELECT * FROM orgs ORDER BY name')).map(toOrg);
    },
  };
}
