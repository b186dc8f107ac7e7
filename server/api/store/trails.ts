import { templateOf } from '../../../shared/templates/index.ts';
import { toAction, type Action, type ActionRow } from './actions.ts';
import { inLiveFlow, parseJson, placeholderList, rowsByKey, type Param, type Statements } from './db.ts';
import type { StoredTemplate } from './flows.ts';
import { newestNumberAt, numbersFor, type NumberedPartition } from './listPositions.ts';
import { tagCondition } from './tagFilter.ts';

export interface Trail {
  id: string;
  orgId: number;
  flowId: string;
  name: string;
  description: string;
  /** The template copied at creation or brought with the trail. */
  template: StoredTemplate;
  /** user_data, git_commit_info, repo_info, external_urls, origin_url, repo_ids. */
  body: Record<string, unknown>;
  createdBy: string;
  createdAt: number;
  lastModifiedAt: number;
  /** Moves with every write that changes how the trail reads (events, attestations, artifacts, fields). */
  version: number;
}

/** One entry of a trail's `events` (type, timestamp and the type's extra fields). */
export type TrailEvent = { type: string; timestamp: number } & Record<string, unknown>;

/** What a list needs to decide whether a rendered trail can be reused; `byId` loads the rest. */
export interface TrailRef {
  id: string;
  flowId: string;
  version: number;
}

export interface TrailPage {
  total: number;
  trails: TrailRef[];
}

export interface TrailFilter {
  /** Only trails of this flow (of any live flow of the org otherwise). */
  flowId?: string;
  /** Only trails of flows carrying this tag, `key` or `key=value`. */
  flowTag?: string;
  /** Only trails holding an artifact with this fingerprint. */
  fingerprint?: string;
}

export interface TrailPlace {
  flowId: string;
  flowName: string;
  trail?: { id: string; name: string };
  /** The flow's live actions with the trigger asked for, by number. */
  triggered: Action[];
}

/** A live flow's and trail's ids and names beside one action of the flow with the trigger (its columns NULL when none). */
interface PlaceRow extends ActionRow {
  place_flow_id: string;
  place_flow_name: string;
  place_trail_id: string | null;
  place_trail_name: string | null;
}

export interface TrailStore {
  create(trail: Omit<Trail, 'version'>): Promise<void>;
  update(id: string, changes: { description?: string; body?: Record<string, unknown> }, now: number): Promise<void>;
  byName(flowId: string, name: string): Promise<Trail | undefined>;
  /**
   * Where a write about a trail goes, by the live flow's and the trail's names, in one statement
   * and without reading either row whole: undefined without the flow, `trail` undefined without the trail.
   */
  /**
   * A live flow's trail by names, and the flow's live actions with `trigger` (kind flow), in one
   * statement: on PostgreSQL what an attestation reads before it writes is one round trip.
   */
  placeByNames(orgId: number, flowName: string, trailName: string, trigger: string): Promise<TrailPlace | undefined>;
  byId(id: string): Promise<Trail | undefined>;
  /** Newest first. */
  pageOfFlow(flowId: string, limit: number, offset: number): Promise<TrailPage>;
  /** Newest first, trails of live flows only. */
  pageOfOrg(orgId: number, filter: TrailFilter, limit: number, offset: number): Promise<TrailPage>;
  /** Appends an event and marks the trail modified at its time. */
  appendEvent(trailId: string, event: TrailEvent): Promise<void>;
  events(trailId: string): Promise<TrailEvent[]>;
  /** byId for several trails in a few statements; a trail missing or unreadable maps to an error. */
  byIds(ids: readonly string[]): Promise<Map<string, Trail | Error>>;
  /** The trail of each flow modified last (`latest_activity_at`, `latest_state`), in a few statements; a flow without trails is left out. */
  latestActiveOf(flowIds: readonly string[]): Promise<Map<string, Trail | Error>>;
  /** events for several trails in a few statements. */
  eventsOf(ids: readonly string[]): Promise<Map<string, TrailEvent[] | Error>>;
  /** At most `limit` live trails whose name contains `text` (lowercase), or in `state`; most recently changed first. */
  headlines(
    orgId: number,
    match: { nameContains: string } | { state: string },
    limit: number,
  ): Promise<TrailHeadline[]>;
}

/** What a list of trails across flows shows of each: where it is, its state and when it last changed. */
export interface TrailHeadline {
  flowName: string;
  name: string;
  description: string;
  /** As stored on write (migration 203); null where a read must evaluate it. */
  complianceState: string | null;
  lastModifiedAt: number;
}

/** The one row of each key, or the error that stands for it. */
function single<T>(
  grouped: Map<string, T[] | Error>,
  missing: (key: string) => Error | undefined,
): Map<string, T | Error> {
  const result = new Map<string, T | Error>();
  for (const [key, rows] of grouped) {
    if (rows instanceof Error) result.set(key, rows);
    else if (rows.length > 0) result.set(key, rows[0]);
    else {
      const error = missing(key);
      if (error !== undefined) result.set(key, error);
    }
  }
  return result;
}

export interface TrailRow {
  id: string;
  org_id: number;
  flow_id: string;
  name: string;
  description: string;
  template_id: string;
  template_content: string;
  template: string;
  body: string;
  created_by: string;
  created_at: number;
  last_modified_at: number;
  version: number;
  [column: string]: unknown;
}

interface RefRow {
  id: string;
  flow_id: string;
  version: number;
  [column: string]: unknown;
}

function toRef(row: RefRow): TrailRef {
  return { id: row.id, flowId: row.flow_id, version: row.version };
}

export function toTrail(row: TrailRow): Trail {
  return {
    id: row.id,
    orgId: row.org_id,
    flowId: row.flow_id,
    name: row.name,
    description: row.description,
    template: { id: row.template_id, content: row.template_content, parsed: templateOf(parseJson(row.template, {})) },
    body: parseJson(row.body, {}),
    createdBy: row.created_by,
    createdAt: row.created_at,
    lastModifiedAt: row.last_modified_at,
    version: row.version,
  };
}

const NUMBERED = { table: 'trails', time: 'created_at', tie: 'rowid' } as const;

/** A flow's trails, numbered in list order (migration 241). */
function ofFlow(flowId: string): NumberedPartition {
  return { ...NUMBERED, column: 'flow_pos', where: 'flow_id = ?', params: [flowId] };
}

/** An org's trails, numbered in list order; the trails of archived flows are its gaps (migration 241). */
function ofOrg(orgId: number): NumberedPartition {
  return {
    ...NUMBERED,
    column: 'org_pos',
    where: 'org_id = ?',
    params: [orgId],
    gaps: { list: 'trails', orgId, part: '' },
  };
}

export function trailStore(sql: Statements): TrailStore {
  return {
    async create(trail) {
      const [flowPos, orgPos] = await numbersFor(sql, [ofFlow(trail.flowId), ofOrg(trail.orgId)], trail.createdAt);
      await sql.run(
        `INSERT INTO trails (id, org_id, flow_id, name, description, template_id, template_content, template, body, created_by, created_at, last_modified_at,
                             flow_pos, org_pos)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        trail.id,
        trail.orgId,
        trail.flowId,
        trail.name,
        trail.description,
        trail.template.id,
        trail.template.content,
        JSON.stringify(trail.template.parsed),
        JSON.stringify(trail.body),
        trail.createdBy,
        trail.createdAt,
        trail.lastModifiedAt,
        flowPos,
        orgPos,
      );
    },
    async update(id, changes, now) {
      if (changes.description !== undefined)
        await sql.run('UPDATE trails SET description = ? WHERE id = ?', changes.description, id);
      if (changes.body !== undefined)
        await sql.run('UPDATE trails SET body = ? WHERE id = ?', JSON.stringify(changes.body), id);
      await sql.run('UPDATE trails SET last_modified_at = ? WHERE id = ?', now, id);
    },
    async byName(flowId, name) {
      const row = await sql.get<TrailRow>('SELECT * FROM trails WHERE flow_id = ? AND name = ?', flowId, name);
      return row === undefined ? undefined : toTrail(row);
    },
    async placeByNames(orgId, flowName, trailName, trigger) {
      // One row per action (or one with the action's columns NULL); none when the flow is not live.
      // Batched: the attestations of a moment look their trails up in one round trip.
      const rows = await sql.allBatched<PlaceRow>(
        `SELECT p.flow_id AS place_flow_id, p.flow_name AS place_flow_name, p.trail_id AS place_trail_id, p.trail_name AS place_trail_name, a.*
           FROM (SELECT f.id AS flow_id, f.name AS flow_name, t.id AS trail_id, t.name AS trail_name
                   FROM flows f LEFT JOIN trails t ON t.flow_id = f.id AND t.name = ?
                  WHERE f.org_id = ? AND f.name = ? AND f.archived_at IS NULL) p
           LEFT JOIN actions a
             ON a.id IN (SELECT action_id FROM action_watches WHERE org_id = ? AND kind = 'flow' AND name = p.flow_name)
            AND a.deleted_at IS NULL AND a.type = 'flow' AND EXISTS (SELECT 1 FROM json_each(a.triggers) WHERE value = ?)
          ORDER BY a.number`,
        trailName,
        orgId,
        flowName,
        orgId,
        trigger,
      );
      if (rows.length === 0) return undefined;
      const row = rows[0];
      return {
        flowId: row.place_flow_id,
        flowName: row.place_flow_name,
        trail: row.place_trail_id === null ? undefined : { id: row.place_trail_id, name: String(row.place_trail_name) },
        triggered: rows.filter((action) => action.id !== null).map(toAction),
      };
    },
    async byId(id) {
      const row = await sql.get<TrailRow>('SELECT * FROM trails WHERE id = ?', id);
      return row === undefined ? undefined : toTrail(row);
    },
    async pageOfFlow(flowId, limit, offset) {
      const total = Number(
        (await sql.get<{ n: number }>('SELECT trail_count AS n FROM flows WHERE id = ?', flowId))?.n ?? 0,
      );
      // A seek on the flow's numbers, however deep the page (every trail of a flow is listed).
      const bound = newestNumberAt(ofFlow(flowId), offset);
      const trails = (
        await sql.all<RefRow>(
          `SELECT id, flow_id, version FROM trails WHERE flow_id = ? AND flow_pos <= ${bound.sql} ORDER BY flow_pos DESC LIMIT ?`,
          flowId,
          ...bound.params,
          limit,
        )
      ).map(toRef);
      return { total, trails };
    },
    async pageOfOrg(orgId, filter, limit, offset) {
      // Not a join with the flows: SQLite then filtered the org's flows first, every one of them
      // (a Bloom filter) at each page; the tag is asked of each trail's flow.
      const where = [inLiveFlow('t')];
      const params: Param[] = [];
      if (filter.flowTag !== undefined) {
        const condition = tagCondition('f.tags', filter.flowTag, '=');
        where.push(`EXISTS (SELECT 1 FROM flows f WHERE f.id = t.flow_id AND ${condition.sql})`);
        params.push(...condition.params);
      }
      let numbered: NumberedPartition;
      if (filter.flowId !== undefined) {
        where.push('t.flow_id = ?');
        params.push(filter.flowId);
        numbered = ofFlow(filter.flowId);
      } else {
        where.push('t.org_id = ?');
        params.push(orgId);
        numbered = ofOrg(orgId);
      }
      if (filter.fingerprint !== undefined) {
        where.push('t.id IN (SELECT trail_id FROM artifacts WHERE org_id = ? AND fingerprint = ?)');
        params.push(orgId, filter.fingerprint);
      }
      const from = `FROM trails t WHERE ${where.join(' AND ')}`;
      // Without a tag or fingerprint filter the total is a count kept on write (migration 007).
      const kept =
        filter.flowTag !== undefined || filter.fingerprint !== undefined
          ? undefined
          : filter.flowId !== undefined
            ? await sql.get<{ n: number }>(
                'SELECT trail_count AS n FROM flows WHERE id = ? AND archived_at IS NULL',
                filter.flowId,
              )
            : await sql.get<{ n: number }>('SELECT live_trails AS n FROM orgs WHERE id = ?', orgId);
      const total = Number((kept ?? (await sql.get<{ n: number }>(`SELECT count(*) AS n ${from}`, ...params))!).n);
      const column = `t.${numbered.column}`;
      // A seek where the list is its partition's numbered rows but the gaps: one flow's trails (a
      // flow tag keeps all of them or none), or the org's. A filter that picks rows one by one
      // walks them, as its total counts them.
      const seek = filter.fingerprint === undefined && (filter.flowId !== undefined || filter.flowTag === undefined);
      const bound = seek ? newestNumberAt(numbered, offset) : undefined;
      const rows = await sql.all<RefRow>(
        bound === undefined
          ? `SELECT t.id, t.flow_id, t.version ${from} ORDER BY ${column} DESC LIMIT ? OFFSET ?`
          : `SELECT t.id, t.flow_id, t.version ${from} AND ${column} <= ${bound.sql} ORDER BY ${column} DESC LIMIT ?`,
        ...params,
        ...(bound === undefined ? [limit, offset] : [...bound.params, limit]),
      );
      return { total, trails: rows.map(toRef) };
    },
    async appendEvent(trailId, event) {
      const { type, timestamp, ...data } = event;
      await sql.write(
        'INSERT INTO trail_events (trail_id, type, timestamp, data) VALUES (?, ?, ?, ?)',
        trailId,
        type,
        timestamp,
        JSON.stringify(data),
      );
      // The later of the two, as a CASE: PostgreSQL plans a call of max(a, b) (compat.ts, an SQL
      // function it inlines) on every execution of a statement that is not prepared, as an
      // attestation's writes are not (measured: 0.07 ms of planning each, more than the update).
      await sql.write(
        'UPDATE trails SET last_modified_at = CASE WHEN last_modified_at < ? THEN ? ELSE last_modified_at END WHERE id = ?',
        timestamp,
        timestamp,
        trailId,
      );
    },
    async byIds(ids) {
      const grouped = await rowsByKey(
        ids,
        (keys) => sql.all<TrailRow>(`SELECT * FROM trails WHERE id IN (${placeholderList(keys.length)})`, ...keys),
        (row) => row.id,
        toTrail,
      );
      return single(grouped, (id) => new Error(`trail ${id} not found`));
    },
    async latestActiveOf(flowIds) {
      // One indexed lookup per flow (trails_by_activity), all in one statement.
      const latest = '(SELECT id FROM trails WHERE flow_id = ? ORDER BY last_modified_at DESC, rowid DESC LIMIT 1)';
      const grouped = await rowsByKey(
        flowIds,
        (keys) => sql.all<TrailRow>(`SELECT * FROM trails WHERE id IN (${keys.map(() => latest).join(', ')})`, ...keys),
        (row) => row.flow_id,
        toTrail,
      );
      return single(grouped, () => undefined);
    },
    async eventsOf(ids) {
      return rowsByKey(
        ids,
        (keys) =>
          sql.all<{ trail_id: string; type: string; timestamp: number; data: string }>(
            `SELECT trail_id, type, timestamp, data FROM trail_events WHERE trail_id IN (${placeholderList(keys.length)}) ORDER BY trail_id, seq`,
            ...keys,
          ),
        (row) => row.trail_id,
        (row): TrailEvent => ({
          type: row.type,
          timestamp: row.timestamp,
          ...parseJson<Record<string, unknown>>(row.data, {}),
        }),
      );
    },
    async headlines(orgId, match, limit) {
      const [condition, value] =
        'state' in match
          ? ['t.compliance_state = ?', match.state]
          : ['instr(lower(t.name), ?) > 0', match.nameContains];
      const rows = await sql.all<{
        flow_name: string;
        name: string;
        description: string;
        compliance_state: string | null;
        last_modified_at: number;
      }>(
        `SELECT f.name AS flow_name, t.name, t.description, t.compliance_state, t.last_modified_at
           FROM trails t JOIN flows f ON f.id = t.flow_id
          WHERE t.org_id = ? AND f.archived_at IS NULL AND ${condition}
          ORDER BY t.last_modified_at DESC LIMIT ?`,
        orgId,
        value,
        limit,
      );
      return rows.map((row) => ({
        flowName: row.flow_name,
        name: row.name,
        description: row.description,
        complianceState: row.compliance_state,
        lastModifiedAt: Number(row.last_modified_at),
      }));
    },
    async events(trailId) {
      return (
        await sql.all<{ type: string; timestamp: number; data: string }>(
          'SELECT type, timestamp, data FROM trail_events WHERE trail_id = ? ORDER BY seq',
          trailId,
        )
      ).map((row) => ({
        type: row.type,
        timestamp: row.timestamp,
        ...parseJson<Record<string, unknown>>(row.data, {}),
      }));
    },
  };
}
