// Snapshots and environment events (reference §2.7, §5.5, §5.6). A snapshot's artifacts, its
// compact states and its applied policies are JSON documents the store keeps whole and gives back
// parsed: their shapes are the snapshot rules' (services/snapshots.ts reads them as such), and the
// store knows nothing of them but that they are JSON.
import type { Param, Statements } from './db.ts';

export interface ComplianceCount {
  true: number;
  false: number;
  null: number;
}

export interface StoredSnapshot {
  index: number;
  startedAt: number;
  /** 0 while the snapshot is the current one. */
  endedAt: number;
  compliant: boolean;
  complianceCount: ComplianceCount;
  appliedPolicies: unknown[];
  artifacts: unknown[];
  eventCounts: EventCounts;
}

export interface SnapshotSummary {
  index: number;
  startedAt: number;
  endedAt: number;
  compliant: boolean;
}

export interface LatestStates {
  index: number;
  compliant: boolean;
  /** One document per artifact, in the order of the artifacts. */
  states: unknown[];
  /** The artifact documents at these positions, each parsed alone. */
  artifactsAt(positions: readonly number[]): unknown[];
}

/** What recording a snapshot writes: its row, and one event row per event. */
export interface NewSnapshot {
  compliant: boolean;
  complianceCount: ComplianceCount;
  appliedPolicies: readonly unknown[];
  states: readonly unknown[];
  artifacts: readonly unknown[];
  events: readonly NewEnvironmentEvent[];
}

export interface NewEnvironmentEvent {
  type: string;
  artifactName: string;
  fingerprint: string;
  description: string;
  flowNames: readonly string[];
  trailNames: readonly string[];
  gitCommit: string;
  repoNames: readonly string[];
  pipeline: string;
  artifactCompliance: boolean | null;
}

export interface EventCounts {
  total: number;
  started: number;
  changed: number;
  exited: number;
}

export interface EnvironmentEvent {
  id: number;
  snapshotIndex: number;
  type: string;
  reportedAt: number;
  artifactName: string;
  fingerprint: string;
  description: string;
  flowNames: string[];
  trailNames: string[];
  gitCommit: string;
  repoNames: string[];
  pipeline: string;
  artifactCompliance: boolean | null;
  snapshotCompliance: boolean | null;
}

export interface EventQuery {
  /** Inclusive snapshot index range. */
  first: number;
  last: number;
  fromTimestamp?: number;
  toTimestamp?: number;
  repoNames?: readonly string[];
  reverse: boolean;
  /** Paging: `limit` rows after skipping `offset`. */
  offset: number;
  limit: number;
}

export interface AuditLogFilter {
  fromTimestamp?: number;
  toTimestamp?: number;
  eventTypes?: readonly string[];
  /** Flow names; the entry `no provenance` selects artifacts attested in no flow. */
  flowNames?: readonly string[];
  repoNames?: readonly string[];
}

export interface SnapshotStore {
  latest(environmentId: number): Promise<LatestStates | undefined>;
  /** Index of the snapshot current at `timestamp`; 0 before the first. */
  indexAt(environmentId: number, timestamp: number): Promise<number>;
  get(environmentId: number, index: number): Promise<StoredSnapshot | undefined>;
  /** Snapshots with index in [first, last], ascending or, with `reverse`, descending; one page of them when `page` is given. */
  list(
    environmentId: number,
    first: number,
    last: number,
    reverse: boolean,
    page?: { limit: number; offset: number },
  ): Promise<SnapshotSummary[]>;
  /** Writes the next snapshot, closes the previous one and records its events; the snapshot's index. */
  record(environmentId: number, snapshot: NewSnapshot, now: number): Promise<number>;
  events(environmentId: number, query: EventQuery): Promise<{ events: EnvironmentEvent[]; total: number }>;
  /** One batch of the events of the audit log, oldest first, after event id `after`, and the id to go on after. */
  auditLogBatch(
    environmentId: number,
    filter: AuditLogFilter,
    after: number,
    limit: number,
  ): Promise<{ events: EnvironmentEvent[]; cursor: number }>;
}

interface SnapshotRow {
  idx: number;
  started_at: number;
  ended_at: number;
  compliant: number;
  compliance_count: string;
  applied_policies: string;
  artifacts: string;
  [column: string]: unknown;
}

interface EventRow {
  id: number;
  snapshot_idx: number;
  type: string;
  reported_at: number;
  artifact_name: string;
  fingerprint: string;
  description: string;
  flow_names: string;
  trail_names: string;
  git_commit: string;
  repo_names: string;
  pipeline: string;
  artifact_compliance: number | null;
  snapshot_compliance: number | null;
  [column: string]: unknown;
}

// Most running artifacts have no provenance: their name lists are the literal `[]`.
function namesOf(json: string): string[] {
  return json === '[]' ? [] : (JSON.parse(json) as string[]);
}

function booleanOf(value: number | null): boolean | null {
  return value === null ? null : value === 1;
}

function booleanColumn(value: boolean | null): number | null {
  return value === null ? null : value ? 1 : 0;
}

function toEvent(row: EventRow): EnvironmentEvent {
  return {
    id: row.id,
    snapshotIndex: row.snapshot_idx,
    type: row.type,
    reportedAt: row.reported_at,
    artifactName: row.artifact_name,
    fingerprint: row.fingerprint,
    description: row.description,
    flowNames: namesOf(row.flow_names),
    trailNames: namesOf(row.trail_names),
    gitCommit: row.git_commit,
    repoNames: namesOf(row.repo_names),
    pipeline: row.pipeline,
    artifactCompliance: booleanOf(row.artifact_compliance),
    snapshotCompliance: booleanOf(row.snapshot_compliance),
  };
}

// A snapshot's artifacts are stored one JSON document per line, in the order of its states, so
// that one artifact can be read without parsing the others.
function artifactsOf(lines: string): unknown[] {
  return lines === '' ? [] : lines.split('\n').map((line): unknown => JSON.parse(line));
}

/** Adds the optional `reported_at` bounds (inclusive) of a query to its conditions. */
function reportedWithin(
  where: string[],
  params: Param[],
  range: { fromTimestamp?: number; toTimestamp?: number },
): void {
  if (range.fromTimestamp !== undefined) {
    where.push('reported_at >= ?');
    params.push(range.fromTimestamp);
  }
  if (range.toTimestamp !== undefined) {
    where.push('reported_at <= ?');
    params.push(range.toTimestamp);
  }
}

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

export function snapshotStore(sql: Statements): SnapshotStore {
  async function eventCounts(environmentId: number, index: number): Promise<EventCounts> {
    const counts: EventCounts = { total: 0, started: 0, changed: 0, exited: 0 };
    for (const row of await sql.all<{ type: string; n: number }>(
      'SELECT type, count(*) AS n FROM environment_events WHERE environment_id = ? AND snapshot_idx = ? GROUP BY type',
      environmentId,
      index,
    )) {
      // Legacy types (e.g. scaling) count in the total, not in the breakdown (spec §Events 2).
      counts.total += row.n;
      if (row.type === 'started' || row.type === 'changed' || row.type === 'exited') counts[row.type] += row.n;
    }
    return counts;
  }

  return {
    async latest(environmentId) {
      // The artifacts document comes along (one row read); only the positions asked for are parsed.
      const row = await sql.get<{ idx: number; compliant: number; states: string; artifacts: string }>(
        `SELECT s.idx, s.compliant, s.states, s.artifacts FROM snapshots s JOIN environments e ON e.id = s.environment_id
         WHERE s.environment_id = ? AND s.idx = e.snapshot_count`,
        environmentId,
      );
      if (row === undefined) return undefined;
      return {
        index: row.idx,
        compliant: row.compliant === 1,
        states: JSON.parse(row.states) as unknown[],
        artifactsAt: (positions) => {
          const lines = row.artifacts.split('\n');
          return positions.map((position): unknown => JSON.parse(lines[position]));
        },
      };
    },
    async indexAt(environmentId, timestamp) {
      const row = await sql.get<{ idx: number | null }>(
        'SELECT max(idx) AS idx FROM snapshots WHERE environment_id = ? AND started_at <= ?',
        environmentId,
        timestamp,
      );
      return row?.idx ?? 0;
    },
    async get(environmentId, index) {
      const row = await sql.get<SnapshotRow>(
        'SELECT * FROM snapshots WHERE environment_id = ? AND idx = ?',
        environmentId,
        index,
      );
      if (row === undefined) return undefined;
      return {
        index: row.idx,
        startedAt: row.started_at,
        endedAt: row.ended_at,
        compliant: row.compliant === 1,
        complianceCount: JSON.parse(row.compliance_count) as ComplianceCount,
        appliedPolicies: JSON.parse(row.applied_policies) as unknown[],
        artifacts: artifactsOf(row.artifacts),
        eventCounts: await eventCounts(environmentId, index),
      };
    },
    async list(environmentId, first, last, reverse, page) {
      // Indexes run 1, 2, 3... without gaps: a page of the range is a range of indexes, read from
      // the (environment_id, idx) key however deep it is.
      const offset = page?.offset ?? 0;
      return (
        await sql.all<SnapshotRow>(
          `SELECT idx, started_at, ended_at, compliant FROM snapshots WHERE environment_id = ? AND idx BETWEEN ? AND ?
           ORDER BY idx ${reverse ? 'DESC' : 'ASC'} LIMIT ?`,
          environmentId,
          reverse ? first : first + offset,
          reverse ? last - offset : last,
          page?.limit ?? -1,
        )
      ).map((row) => ({
        index: row.idx,
        startedAt: row.started_at,
        endedAt: row.ended_at,
        compliant: row.compliant === 1,
      }));
    },
    async record(environmentId, snapshot, now) {
      // Events are numbered on from the environment's last (migration 244).
      const { snapshot_count: previous, events_through: eventsBefore } = (await sql.get<{
        snapshot_count: number;
        events_through: number;
      }>(
        `SELECT e.snapshot_count, coalesce((SELECT s.events_through FROM snapshots s WHERE s.environment_id = e.id AND s.idx = e.snapshot_count), 0) AS events_through
           FROM environments e WHERE e.id = ?`,
        environmentId,
      ))!;
      const index = previous + 1;
      await sql.run(
        'UPDATE snapshots SET ended_at = ? WHERE environment_id = ? AND idx = ?',
        now,
        environmentId,
        previous,
      );
      await sql.run(
        `INSERT INTO snapshots (environment_id, idx, started_at, compliant, compliance_count, applied_policies, states, artifacts, events_through)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        environmentId,
        index,
        now,
        snapshot.compliant ? 1 : 0,
        JSON.stringify(snapshot.complianceCount),
        JSON.stringify(snapshot.appliedPolicies),
        JSON.stringify(snapshot.states),
        snapshot.artifacts.map((artifact) => JSON.stringify(artifact)).join('\n'),
        Number(eventsBefore) + snapshot.events.length,
      );
      await sql.run(
        'UPDATE environments SET snapshot_count = ?, last_changed_at = ? WHERE id = ?',
        index,
        now,
        environmentId,
      );
      for (const [position, event] of snapshot.events.entries()) {
        await sql.run(
          `INSERT INTO environment_events (environment_id, snapshot_idx, type, reported_at, artifact_name, fingerprint, description,
             flow_names, trail_names, git_commit, repo_names, pipeline, artifact_compliance, snapshot_compliance, env_pos)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          environmentId,
          index,
          event.type,
          now,
          event.artifactName,
          event.fingerprint,
          event.description,
          JSON.stringify(event.flowNames),
          JSON.stringify(event.trailNames),
          event.gitCommit,
          JSON.stringify(event.repoNames),
          event.pipeline,
          booleanColumn(event.artifactCompliance),
          snapshot.compliant ? 1 : 0,
          Number(eventsBefore) + position + 1,
        );
      }
      return index;
    },
    async events(environmentId, query) {
      // The events of snapshots first..last are numbered after the environment's count through
      // first - 1, up to its count through last (migration 244): two lookups by snapshot key.
      const through = (comparison: '<' | '<=') =>
        `coalesce((SELECT events_through FROM snapshots WHERE environment_id = ? AND idx ${comparison} ? ORDER BY idx DESC LIMIT 1), 0)`;
      const [low, high] = [through('<'), through('<=')];
      const lowParams = [environmentId, query.first];
      const highParams = [environmentId, query.last];
      const where = ['environment_id = ?'];
      const params: Param[] = [environmentId];
      reportedWithin(where, params, query);
      if (query.repoNames !== undefined && query.repoNames.length > 0) {
        where.push(
          `EXISTS (SELECT 1 FROM json_each(repo_names) WHERE value IN (${placeholders(query.repoNames.length)}))`,
        );
        params.push(...query.repoNames);
      }
      const order = query.reverse ? 'DESC' : 'ASC';
      if (where.length === 1) {
        // The range alone: the total is the difference of the two counts, a page a range of numbers.
        const counted = (await sql.get<{ n: number }>(`SELECT ${high} - ${low} AS n`, ...highParams, ...lowParams))!;
        const rows = await sql.all<EventRow>(
          query.reverse
            ? `SELECT * FROM environment_events WHERE environment_id = ? AND env_pos > ${low} AND env_pos <= ${high} - ?
               ORDER BY env_pos DESC LIMIT ?`
            : `SELECT * FROM environment_events WHERE environment_id = ? AND env_pos > ${low} + ? AND env_pos <= ${high}
               ORDER BY env_pos ASC LIMIT ?`,
          environmentId,
          ...(query.reverse
            ? [...lowParams, ...highParams, query.offset]
            : [...lowParams, query.offset, ...highParams]),
          query.limit,
        );
        return { events: rows.map(toEvent), total: Math.max(0, Number(counted.n)) };
      }
      // Filters that pick events one by one: the total counts the events of the range that pass,
      // and a page walks no more than those.
      const condition = `${where.join(' AND ')} AND env_pos > ${low} AND env_pos <= ${high}`;
      const conditionParams = [...params, ...lowParams, ...highParams];
      const total = (await sql.get<{ n: number }>(
        `SELECT count(*) AS n FROM environment_events WHERE ${condition}`,
        ...conditionParams,
      ))!.n;
      const rows = await sql.all<EventRow>(
        `SELECT * FROM environment_events WHERE ${condition} ORDER BY env_pos ${order} LIMIT ? OFFSET ?`,
        ...conditionParams,
        query.limit,
        query.offset,
      );
      return { events: rows.map(toEvent), total };
    },
    async auditLogBatch(environmentId, filter, after, limit) {
      const where = ['environment_id = ?', 'id > ?'];
      const params: Param[] = [environmentId, after];
      reportedWithin(where, params, filter);
      if (filter.eventTypes !== undefined) {
        where.push(`type IN (${placeholders(filter.eventTypes.length)})`);
        params.push(...filter.eventTypes);
      }
      if (filter.flowNames !== undefined) {
        const named = filter.flowNames.filter((name) => name !== 'no provenance');
        const either: string[] = [];
        if (named.length > 0) {
          either.push(`EXISTS (SELECT 1 FROM json_each(flow_names) WHERE value IN (${placeholders(named.length)}))`);
          params.push(...named);
        }
        if (named.length < filter.flowNames.length) either.push(`flow_names = '[]'`);
        where.push(`(${either.join(' OR ')})`);
      }
      if (filter.repoNames !== undefined) {
        where.push(
          `EXISTS (SELECT 1 FROM json_each(repo_names) WHERE value IN (${placeholders(filter.repoNames.length)}))`,
        );
        params.push(...filter.repoNames);
      }
      const rows = await sql.all<EventRow>(
        `SELECT id, snapshot_idx, type, reported_at, artifact_name, fingerprint, description, flow_names, trail_names, git_commit,
                repo_names, pipeline, artifact_compliance, snapshot_compliance
         FROM environment_events WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`,
        ...params,
        limit,
      );
      return { events: rows.map(toEvent), cursor: rows.at(-1)?.id ?? after };
    },
  };
}
