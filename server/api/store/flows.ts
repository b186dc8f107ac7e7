import { templateOf, type FlowTemplate } from '../../../shared/templates/index.ts';
import { decodeEach, json, parseJson, type Param, type Statements, type Unreadable } from './db.ts';
import { gapsOpened } from './listPositions.ts';
import { nameSortKey } from './sortKey.ts';
import { tagCondition } from './tagFilter.ts';

/** A flow's template: its text and its parsed form, under one id per version. */
export interface StoredTemplate {
  id: string;
  content: string;
  parsed: FlowTemplate;
}

export interface Flow {
  id: string;
  orgId: number;
  name: string;
  description: string;
  visibility: string;
  template: StoredTemplate;
  tags: Record<string, string>;
  repoUrl: string | null;
  createdBy: string;
  createdAt: number;
  lastModifiedAt: number;
  /** Kept on write from the flow's trails (migrations 006 and 203), not by create: the latest trail's time, null without trails. */
  latestActivityAt: number | null;
  /** The latest trail's compliance state; null without trails, or when it must be evaluated on read. */
  latestState: string | null;
}

export interface FlowChanges {
  description?: string;
  visibility?: string;
  template?: StoredTemplate;
}

export interface FlowQuery {
  /** Only flows whose name contains this text. */
  nameContains?: string;
  caseSensitive?: boolean;
  /** Only flows carrying every one of these tags, each `key` or `key:value`. */
  tags?: readonly string[];
  /** By name (as localeCompare orders), or by the latest activity of their trails, then name. */
  sort: 'name' | 'latest_activity';
  descending: boolean;
}

export interface FlowPage {
  total: number;
  flows: Array<Flow | Unreadable>;
}

export interface FlowStore {
  create(flow: Flow): Promise<void>;
  update(id: string, changes: FlowChanges, now: number): Promise<void>;
  /** A live (not archived) flow by name. */
  byName(orgId: number, name: string): Promise<Flow | undefined>;
  /** A live flow's id and version (which moves with any write to the flow or its trails). */
  versionOf(orgId: number, name: string): Promise<{ id: string; version: number } | undefined>;
  byId(id: string): Promise<Flow | undefined>;
  /** Every live flow of the org, by name. */
  list(orgId: number): Promise<Array<Flow | Unreadable>>;
  /** One page of the live flows a query selects (`limit` -1: all of them), and how many it selects. */
  page(orgId: number, query: FlowQuery, limit: number, offset: number): Promise<FlowPage>;
  archive(id: string, now: number): Promise<void>;
  rename(id: string, newName: string, now: number): Promise<void>;
  setTags(id: string, tags: Record<string, string>, now: number): Promise<void>;
}

interface FlowRow {
  id: string;
  org_id: number;
  name: string;
  description: string;
  visibility: string;
  template_id: string;
  template_content: string;
  template: string;
  tags: string;
  repo_url: string | null;
  created_by: string;
  created_at: number;
  last_modified_at: number;
  latest_activity_at: number | null;
  latest_state: string | null;
  [column: string]: unknown;
}

function toFlow(row: FlowRow): Flow {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    description: row.description,
    visibility: row.visibility,
    template: { id: row.template_id, content: row.template_content, parsed: templateOf(parseJson(row.template, {})) },
    tags: parseJson(row.tags, {}),
    repoUrl: row.repo_url,
    createdBy: row.created_by,
    createdAt: row.created_at,
    lastModifiedAt: row.last_modified_at,
    latestActivityAt: row.latest_activity_at,
    latestState: row.latest_state,
  };
}

export function flowStore(sql: Statements): FlowStore {
  return {
    async create(flow) {
      await sql.run(
        `INSERT INTO flows (id, org_id, name, name_key, description, visibility, template_id, template_content, template, tags, repo_url,
                            created_by, created_at, last_modified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        flow.id,
        flow.orgId,
        flow.name,
        nameSortKey(flow.name),
        flow.description,
        flow.visibility,
        flow.template.id,
        flow.template.content,
        JSON.stringify(flow.template.parsed),
        JSON.stringify(flow.tags),
        flow.repoUrl,
        flow.createdBy,
        flow.createdAt,
        flow.lastModifiedAt,
      );
    },
    async update(id, changes, now) {
      if (changes.description !== undefined)
        await sql.run('UPDATE flows SET description = ? WHERE id = ?', changes.description, id);
      if (changes.visibility !== undefined)
        await sql.run('UPDATE flows SET visibility = ? WHERE id = ?', changes.visibility, id);
      if (changes.template !== undefined) {
        await sql.run(
          'UPDATE flows SET template_id = ?, template_content = ?, template = ? WHERE id = ?',
          changes.template.id,
          changes.template.content,
          json(changes.template.parsed),
          id,
        );
      }
      await sql.run('UPDATE flows SET last_modified_at = ? WHERE id = ?', now, id);
    },
    async byName(orgId, name) {
      const row = await sql.get<FlowRow>(
        'SELECT * FROM flows WHERE org_id = ? AND name = ? AND archived_at IS NULL',
        orgId,
        name,
      );
      return row === undefined ? undefined : toFlow(row);
    },
    async versionOf(orgId, name) {
      return await sql.get<{ id: string; version: number }>(
        'SELECT id, version FROM flows WHERE org_id = ? AND name = ? AND archived_at IS NULL',
        orgId,
        name,
      );
    },
    async byId(id) {
      const row = await sql.get<FlowRow>('SELECT * FROM flows WHERE id = ?', id);
      return row === undefined ? undefined : toFlow(row);
    },
    async list(orgId) {
      return decodeEach(
        await sql.all<FlowRow>('SELECT * FROM flows WHERE org_id = ? AND archived_at IS NULL ORDER BY name', orgId),
        toFlow,
      );
    },
    async page(orgId, query, limit, offset) {
      const where = ['org_id = ?', 'archived_at IS NULL'];
      const params: Param[] = [orgId];
      if (query.nameContains !== undefined) {
        where.push(query.caseSensitive ? 'instr(name, ?) > 0' : 'instr(lower(name), ?) > 0');
        params.push(query.caseSensitive ? query.nameContains : query.nameContains.toLowerCase());
      }
      for (const tag of query.tags ?? []) {
        const condition = tagCondition('tags', tag, ':');
        where.push(condition.sql);
        params.push(...condition.params);
      }
      const direction = query.descending ? 'DESC' : 'ASC';
      const terms: Array<[string, 'ASC' | 'DESC']> =
        query.sort === 'name'
          ? [['name_key', direction]]
          : [
              ['coalesce(latest_activity_at, 0)', direction],
              ['name_key', 'ASC'],
            ];
      const orderOf = (reversed: boolean): string =>
        terms.map(([term, way]) => `${term} ${reversed === (way === 'ASC') ? 'DESC' : 'ASC'}`).join(', ');
      const conditions = where.join(' AND ');
      // Unfiltered, the total is the org's count kept on write (migration 007).
      const total = Number(
        where.length === 2
          ? (await sql.get<{ n: number }>('SELECT live_flows AS n FROM orgs WHERE id = ?', orgId))!.n
          : (await sql.get<{ n: number }>(`SELECT count(*) AS n FROM flows WHERE ${conditions}`, ...params))!.n,
      );
      // Past the middle of the whole list, a page is read from the list's other end, walking the
      // flows after it instead of those before: at most half of the org's flows. (Their order
      // moves with every write to a trail, so no numbering keeps up with it.) The count that placed
      // the page comes with its rows, from the same snapshot; if a write changed it in between,
      // the page is read from the front.
      if (where.length === 2 && limit > 0 && offset >= total) return { total, flows: [] };
      if (where.length === 2 && limit > 0 && offset >= total / 2) {
        const size = Math.min(limit, total - offset);
        const rows = await sql.all<FlowRow>(
          `SELECT *, (SELECT live_flows FROM orgs WHERE id = ?) AS listed_flows FROM flows WHERE ${conditions}
           ORDER BY ${orderOf(true)} LIMIT ? OFFSET ?`,
          orgId,
          ...params,
          size,
          total - offset - size,
        );
        if (rows.length === size && rows.every((row) => Number(row.listed_flows) === total))
          return { total, flows: decodeEach(rows.reverse(), toFlow) };
      }
      const rows = await sql.all<FlowRow>(
        `SELECT * FROM flows WHERE ${conditions} ORDER BY ${orderOf(false)} LIMIT ? OFFSET ?`,
        ...params,
        limit,
        offset,
      );
      return { total, flows: decodeEach(rows, toFlow) };
    },
    async archive(id, now) {
      await sql.run('UPDATE flows SET archived_at = ?, last_modified_at = ? WHERE id = ?', now, now, id);
      // The flow's trails and artifacts leave the org's lists, their numbers become gaps (migration 240).
      const { org_id: orgId } = (await sql.get<{ org_id: number }>('SELECT org_id FROM flows WHERE id = ?', id))!;
      await gapsOpened(
        sql,
        orgId,
        `SELECT 'trails', org_id, '', org_pos FROM trails WHERE flow_id = ?
         UNION ALL SELECT 'artifacts', org_id, '', org_pos FROM artifacts WHERE flow_id = ?
         UNION ALL SELECT 'artifacts-repo', org_id, repo_name, repo_pos FROM artifacts WHERE flow_id = ? AND repo_name IS NOT NULL`,
        id,
        id,
        id,
      );
    },
    async rename(id, newName, now) {
      await sql.run(
        'UPDATE flows SET name = ?, name_key = ?, last_modified_at = ? WHERE id = ?',
        newName,
        nameSortKey(newName),
        now,
        id,
      );
    },
    async setTags(id, tags, now) {
      await sql.run('UPDATE flows SET tags = ?, last_modified_at = ? WHERE id = ?', JSON.stringify(tags), now, id);
    },
  };
}
