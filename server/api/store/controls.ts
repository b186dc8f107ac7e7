import { decodeEach, parseJson, type Param, type Statements, type Unreadable } from './db.ts';
import { tagCondition } from './tagFilter.ts';

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

export interface ControlQuery {
  /** Archived controls too. */
  archived: boolean;
  /** Only controls whose identifier or name contains this text, case aside. */
  search?: string;
  /** Only controls carrying this tag, `key` or `key:value`. */
  tag?: string;
  /** By identifier as stored (binary), or the reverse. */
  descending: boolean;
}

export interface ControlPage {
  /** The controls the query selects plus every unreadable one (of the same archived scope). */
  total: number;
  /** The query's controls in order, then the unreadable ones by identifier. */
  controls: Array<Control | Unreadable>;
}

/** A control as one of its versions read (migration 280). */
export interface ControlVersion {
  version: number;
  name: string;
  description: string;
  links: Record<string, string>;
  createdBy: string;
  createdAt: number;
}

/** A page of a control's decisions, newest first: the attestations' ids, and how many there are. */
export interface DecisionPage {
  total: number;
  attestationIds: string[];
}

export interface ControlStore {
  /** Archived controls included: an identifier stays taken. */
  byIdentifier(orgId: number, identifier: string): Promise<Control | undefined>;
  /**
   * One page of the org's controls a query selects, followed by the ones whose row cannot be
   * decoded (marked unreadable, whatever the search or tag), and their number.
   */
  page(orgId: number, query: ControlQuery, limit: number, offset: number): Promise<ControlPage>;
  create(
    orgId: number,
    control: {
      identifier: string;
      name: string;
      description: string;
      links: Record<string, string>;
      createdBy: string;
    },
    now: number,
  ): Promise<void>;
  /** Applies the changes as version + 1, made by `user`. */
  update(id: number, changes: ControlChanges, user: string, now: number): Promise<void>;
  /** The versions kept, oldest first. */
  versions(id: number): Promise<ControlVersion[]>;
  version(id: number, version: number): Promise<ControlVersion | undefined>;
  /** A newest-first page of the decisions on the control `identifier`: a seek on their numbers. */
  decisionPage(orgId: number, identifier: string, limit: number, offset: number): Promise<DecisionPage>;
  setArchived(id: number, archived: boolean, now: number): Promise<void>;
  setTags(id: number, tags: Record<string, string>, now: number): Promise<void>;
  /** The tags of every live control of the org that has some (a row that cannot be read has none). */
  tagSets(orgId: number): Promise<Array<Record<string, string>>>;
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

interface VersionRow {
  version: number;
  name: string;
  description: string;
  links: string;
  created_by: string;
  created_at: number;
  [column: string]: unknown;
}

function toVersion(row: VersionRow): ControlVersion {
  return {
    version: Number(row.version),
    name: row.name,
    description: row.description,
    links: parseJson(row.links, {}),
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
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

export function controlStore(sql: Statements): ControlStore {
  return {
    async byIdentifier(orgId, identifier) {
      const row = await sql.get<ControlRow>(
        'SELECT * FROM controls WHERE org_id = ? AND identifier = ?',
        orgId,
        identifier,
      );
      return row === undefined ? undefined : toControl(row);
    },
    async page(orgId, query, limit, offset) {
      const scope = query.archived ? 'org_id = ?' : 'org_id = ? AND archived = 0';
      const where = [scope, 'json_valid(links)', 'json_valid(tags)'];
      const params: Param[] = [orgId];
      if (query.search !== undefined && query.search !== '') {
        // Identifiers are ASCII, so SQL's lower() folds them as JavaScript does; names are kept
        // folded by JavaScript (name_folded).
        const needle = query.search.toLowerCase();
        where.push('(instr(lower(identifier), ?) > 0 OR instr(name_folded, ?) > 0)');
        params.push(needle, needle);
      }
      if (query.tag !== undefined) {
        const tag = tagCondition('tags', query.tag, ':');
        where.push(tag.sql);
        params.push(...tag.params);
      }
      const conditions = where.join(' AND ');
      const unreadable = `${scope} AND NOT (json_valid(links) AND json_valid(tags))`;
      const unreadableCount = async () =>
        Number((await sql.get<{ n: number }>(`SELECT count(*) AS n FROM controls WHERE ${unreadable}`, orgId))!.n);
      const selectedCount = async () =>
        Number((await sql.get<{ n: number }>(`SELECT count(*) AS n FROM controls WHERE ${conditions}`, ...params))!.n);
      // Unfiltered, the total is the org's counts kept on write (migration 202): every control in scope.
      const counts = await sql.get<{ live: number; archived: number }>(
        'SELECT live_controls AS live, archived_controls AS archived FROM orgs WHERE id = ?',
        orgId,
      );
      const total =
        where.length === 3
          ? Number(counts!.live) + (query.archived ? Number(counts!.archived) : 0)
          : (await selectedCount()) + (await unreadableCount());
      const rows = await sql.all<ControlRow>(
        `SELECT * FROM controls WHERE ${conditions} ORDER BY identifier ${query.descending ? 'DESC' : 'ASC'} LIMIT ? OFFSET ?`,
        ...params,
        limit,
        offset,
      );
      // The unreadable rows follow the selected ones: the page takes those its window reaches.
      const left = limit - rows.length;
      if (left === 0) return { total, controls: decodeEach(rows, toControl) };
      const selected = rows.length > 0 || offset === 0 ? offset + rows.length : await selectedCount();
      const damaged = await sql.all<ControlRow>(
        `SELECT * FROM controls WHERE ${unreadable} ORDER BY identifier LIMIT ? OFFSET ?`,
        orgId,
        left,
        Math.max(0, offset - selected),
      );
      return { total, controls: decodeEach([...rows, ...damaged], toControl) };
    },
    async create(orgId, control, now) {
      await sql.run(
        `INSERT INTO controls (org_id, identifier, name, name_folded, description, links, version, created_by, created_at, last_modified_at)
         VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
        orgId,
        control.identifier,
        control.name,
        control.name.toLowerCase(),
        control.description,
        JSON.stringify(control.links),
        control.createdBy,
        now,
        now,
      );
      await versionWritten(sql, 'org_id = ? AND identifier = ?', [orgId, control.identifier], control.createdBy, now);
    },
    async update(id, changes, user, now) {
      if (changes.name !== undefined)
        await sql.run(
          'UPDATE controls SET name = ?, name_folded = ? WHERE id = ?',
          changes.name,
          changes.name.toLowerCase(),
          id,
        );
      if (changes.description !== undefined)
        await sql.run('UPDATE controls SET description = ? WHERE id = ?', changes.description, id);
      if (changes.links !== undefined)
        await sql.run('UPDATE controls SET links = ? WHERE id = ?', JSON.stringify(changes.links), id);
      await sql.run('UPDATE controls SET version = version + 1, last_modified_at = ? WHERE id = ?', now, id);
      await versionWritten(sql, 'id = ?', [id], user, now);
    },
    async versions(id) {
      const rows = await sql.all<VersionRow>(
        'SELECT * FROM control_versions WHERE control_id = ? ORDER BY version',
        id,
      );
      return rows.map(toVersion);
    },
    async version(id, version) {
      const row = await sql.get<VersionRow>(
        'SELECT * FROM control_versions WHERE control_id = ? AND version = ?',
        id,
        version,
      );
      return row === undefined ? undefined : toVersion(row);
    },
    async decisionPage(orgId, identifier, limit, offset) {
      // Numbers run 1..n without gaps (migration 280): the page below the newest `offset` is a range.
      const counted = await sql.get<{ n: number }>(
        'SELECT n FROM control_decision_counts WHERE org_id = ? AND control = ?',
        orgId,
        identifier,
      );
      const total = Number(counted?.n ?? 0);
      const rows = await sql.all<{ attestation_id: string }>(
        'SELECT attestation_id FROM control_decisions WHERE org_id = ? AND control = ? AND pos <= ? ORDER BY pos DESC LIMIT ?',
        orgId,
        identifier,
        total - offset,
        limit,
      );
      return { total, attestationIds: rows.map((row) => row.attestation_id) };
    },
    async setArchived(id, archived, now) {
      await sql.run('UPDATE controls SET archived = ?, last_modified_at = ? WHERE id = ?', archived ? 1 : 0, now, id);
    },
    async setTags(id, tags, now) {
      await sql.run('UPDATE controls SET tags = ?, last_modified_at = ? WHERE id = ?', JSON.stringify(tags), now, id);
    },
    async tagSets(orgId) {
      const rows = await sql.all<{ tags: string }>(
        `SELECT tags FROM controls WHERE org_id = ? AND archived = 0 AND json_valid(tags) AND tags <> '{}'`,
        orgId,
      );
      return rows.map((row) => JSON.parse(row.tags) as Record<string, string>);
    },
  };
}

/** Writes the version the control `where` selects now has, as made by `user`. */
async function versionWritten(
  sql: Statements,
  where: string,
  params: Param[],
  user: string,
  now: number,
): Promise<void> {
  await sql.run(
    `INSERT INTO control_versions (control_id, version, name, description, links, created_by, created_at)
     SELECT id, version, name, description, links, ?, ? FROM controls WHERE ${where}`,
    user,
    now,
    ...params,
  );
}
