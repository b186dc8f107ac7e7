import { parseJson, type Statements } from './db.ts';

export interface CustomType {
  orgId: number;
  name: string;
  version: number;
  description: string | null;
  schema: Record<string, unknown>;
  /** `{content_type: 'jq', rules: [...]}` or null. */
  evaluator: { content_type: string; rules: string[] } | null;
  summary: Array<{ name: string; expression: string }> | null;
  createdBy: string;
  createdAt: number;
  /** When the type was archived (every version of it at once); null while it is live. */
  archivedAt: number | null;
}

export interface CustomTypeStore {
  /** Stores a new version (1 for a new name), live again if the type was archived, and answers it. */
  createVersion(type: Omit<CustomType, 'version' | 'archivedAt'>): Promise<CustomType>;
  /** The latest version of a live type. */
  latest(orgId: number, name: string): Promise<CustomType | undefined>;
  /** One version of a live type. */
  version(orgId: number, name: string, version: number): Promise<CustomType | undefined>;
  /** The version that was the latest at `time`, archived or not: the one an attestation then was checked with. */
  versionAt(orgId: number, name: string, time: number): Promise<CustomType | undefined>;
  /** Every version of the type, live or archived, oldest first; none for a name never created. */
  versions(orgId: number, name: string): Promise<CustomType[]>;
  /** Every version of the org's types (the archived ones too when asked), by name, oldest first. */
  allVersions(orgId: number, archivedToo: boolean): Promise<CustomType[]>;
  archive(orgId: number, name: string, now: number): Promise<void>;
}

interface CustomTypeRow {
  org_id: number;
  name: string;
  version: number;
  description: string | null;
  schema: string;
  evaluator: string | null;
  summary: string | null;
  created_by: string;
  created_at: number;
  archived_at: number | null;
  [column: string]: unknown;
}

function toType(row: CustomTypeRow): CustomType {
  return {
    orgId: row.org_id,
    name: row.name,
    version: row.version,
    description: row.description,
    schema: parseJson(row.schema, {}),
    evaluator: parseJson(row.evaluator, null),
    summary: parseJson(row.summary, null),
    createdBy: row.created_by,
    createdAt: row.created_at,
    archivedAt: row.archived_at,
  };
}

export function customTypeStore(sql: Statements): CustomTypeStore {
  const latest = async (orgId: number, name: string): Promise<CustomType | undefined> => {
    const row = await sql.get<CustomTypeRow>(
      'SELECT * FROM custom_attestation_types WHERE org_id = ? AND name = ? AND archived_at IS NULL ORDER BY version DESC LIMIT 1',
      orgId,
      name,
    );
    return row === undefined ? undefined : toType(row);
  };
  return {
    async createVersion(type) {
      const previous = await sql.get<{ v: number | null }>(
        'SELECT max(version) AS v FROM custom_attestation_types WHERE org_id = ? AND name = ?',
        type.orgId,
        type.name,
      );
      const version = Number(previous?.v ?? 0) + 1;
      await sql.run(
        'UPDATE custom_attestation_types SET archived_at = NULL WHERE org_id = ? AND name = ?',
        type.orgId,
        type.name,
      );
      await sql.run(
        `INSERT INTO custom_attestation_types (org_id, name, version, description, schema, evaluator, summary, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        type.orgId,
        type.name,
        version,
        type.description,
        JSON.stringify(type.schema),
        type.evaluator === null ? null : JSON.stringify(type.evaluator),
        type.summary === null ? null : JSON.stringify(type.summary),
        type.createdBy,
        type.createdAt,
      );
      return { ...type, version, archivedAt: null };
    },
    latest: async (orgId, name) => latest(orgId, name),
    async version(orgId, name, version) {
      const row = await sql.get<CustomTypeRow>(
        'SELECT * FROM custom_attestation_types WHERE org_id = ? AND name = ? AND version = ? AND archived_at IS NULL',
        orgId,
        name,
        version,
      );
      return row === undefined ? undefined : toType(row);
    },
    async versionAt(orgId, name, time) {
      const row = await sql.get<CustomTypeRow>(
        'SELECT * FROM custom_attestation_types WHERE org_id = ? AND name = ? AND created_at <= ? ORDER BY version DESC LIMIT 1',
        orgId,
        name,
        time,
      );
      return row === undefined ? undefined : toType(row);
    },
    async versions(orgId, name) {
      return (
        await sql.all<CustomTypeRow>(
          'SELECT * FROM custom_attestation_types WHERE org_id = ? AND name = ? ORDER BY version',
          orgId,
          name,
        )
      ).map(toType);
    },
    async allVersions(orgId, archivedToo) {
      return (
        await sql.all<CustomTypeRow>(
          `SELECT * FROM custom_attestation_types WHERE org_id = ? ${archivedToo ? '' : 'AND archived_at IS NULL'}
           ORDER BY name, version`,
          orgId,
        )
      ).map(toType);
    },
    async archive(orgId, name, now) {
      await sql.run(
        'UPDATE custom_attestation_types SET archived_at = ? WHERE org_id = ? AND name = ? AND archived_at IS NULL',
        now,
        orgId,
        name,
      );
    },
  };
}
