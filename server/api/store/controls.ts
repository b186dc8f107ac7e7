import { decodeEach, type Statements, type Unreadable } from './db.ts';

export interface Control {
  id: number;
  identifier: string;
  name: string;
  description: string;
  links: Record<string, string>;
  tags: Record<string, string>;
  version: number;
  createdBy: string;
  createdAt: number;
  lastModifiedAt: number;
  archived: boolean;
}

export interface ControlChanges {
  name?: string;
  description?: string;
  links?: Record<string, string>;
}

export interface ControlStore {
  /** Archived controls included: an identifier stays taken. */
  byIdentifier(orgId: number, identifier: string): Promise<Control | undefined>;
  /** Controls of an org by identifier; archived ones only with `archived`; undecodable rows marked unreadable. */
  list(orgId: number, archived: boolean): Promise<Array<Control | Unreadable>>;
  create(orgId: number, control: { identifier: string; name: string; description: string; links: Record<string, string>; createdBy: string }, now: number): Promise<void>;
  /** Applies the changes as version + 1. */
  update(id: number, changes: ControlChanges, now: number): Promise<void>;
  setArchived(id: number, archived: boolean, now: number): Promise<void>;
  setTags(id: number, tags: Record<string, string>, now: number): Promise<void>;
}

interface ControlRow {
  id: number;
  identifier: string;
  name: string;
  description: string;
  links: string;
  tags: string;
  version: number;
  created_by: string;
  created_at: number;
  last_modified_at: number;
  archived: number;
  [column: string]: unknown;
}

function toControl(row: ControlRow): Control {
  return {
    id: row.id,
    identifier: row.identifier,
    name: row.name,
    description: row.description,
    links: JSON.parse(row.links) as Record<string, string>,
    tags: JSON.parse(row.tags) as Record<string, string>,
    version: row.version,
    createdBy: row.created_by,
    createdAt: row.created_at,
    lastModifiedAt: row.last_modified_at,
    archived: row.archived === 1,
  };
}

export function sqliteControlStore(sql: Statements): ControlStore {
  return {
    async byIdentifier(orgId, identifier) {
      const row = await sql.get<ControlRow>('SELECT * FROM controls WHERE org_id = ? AND identifier = ?', orgId, identifier);
      return row === undefined ? undefined : toControl(row);
    },
    async list(orgId, archived) {
      const rows = archived
        ? await sql.all<ControlRow>('SELECT * FROM controls WHERE org_id = ? ORDER BY identifier', orgId)
        : await sql.all<ControlRow>('SELECT * FROM controls WHERE org_id = ? AND archived = 0 ORDER BY identifier', orgId);
      return decodeEach(rows, toControl);
    },
    async create(orgId, control, now) {
      await sql.run(
        `INSERT INTO controls (org_id, identifier, name, description, links, version, created_by, created_at, last_modified_at)
         VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)`,
        orgId,
        control.identifier,
        control.name,
        control.description,
        JSON.stringify(control.links),
        control.createdBy,
        now,
        now,
      );
    },
    async update(id, changes, now) {
      if (changes.name !== undefined) await sql.run('UPDATE controls SET name = ? WHERE id = ?', changes.name, id);
      if (changes.description !== undefined) await sql.run('UPDATE controls SET description = ? WHERE id = ?', changes.description, id);
      if (changes.links !== undefined) await sql.run('UPDATE controls SET links = ? WHERE id = ?', JSON.stringify(changes.links), id);
      await sql.run('UPDATE controls SET version = version + 1, last_modified_at = ? WHERE id = ?', now, id);
    },
    async setArchived(id, archived, now) {
      await sql.run('UPDATE controls SET archived = ?, last_modified_at = ? WHERE id = ?', archived ? 1 : 0, now, id);
    },
    async setTags(id, tags, now) {
      await sql.run('UPDATE controls SET tags = ?, last_modified_at = ? WHERE id = ?', JSON.stringify(tags), now, id);
    },
  };
}
