import { setImmediate } from 'node:timers/promises';
import { linearRegex, type LinearRegex } from '../../../shared/regex/index.ts';
import {
  inLiveFlow,
  placeholderList,
  rowsByKey,
  decodeEach,
  parseJson,
  type Param,
  type Statements,
  type Unreadable,
  withinWindow,
} from './db.ts';
import { newestNumberAt, type NumberedPartition } from './listPositions.ts';

export interface Evidence {
  sha256: string;
  filename: string;
}

export interface Attestation {
  id: string;
  orgId: number;
  flowId: string;
  trailId: string;
  name: string;
  /** The stored `attestation_type` (`generic`, `custom:person`, `system:decision`); an override keeps its original type. */
  type: string;
  isOverride: boolean;
  isCompliant: boolean;
  artifactFingerprint: string | null;
  targetArtifact: string | null;
  evidence: Evidence | null;
  /** Every reported field (data_json) plus what the server derived. */
  body: Record<string, unknown>;
  reportedBy: string;
  createdAt: number;
  /** Joined for views. */
  flowName: string;
  trailName: string;
}

export type NewAttestation = Omit<Attestation, 'flowName' | 'trailName'>;

export interface AttestationQuery {
  id?: string;
  name?: string;
  /** A JavaScript regular expression the name matches, which linearRegex accepts. */
  nameRegex?: string;
  flowId?: string;
  type?: string;
  isCompliant?: boolean;
  from?: number;
  to?: number;
  /** Only attestations reported after the one with this id (cursor paging). */
  afterId?: string;
}

/** What `GET /attestations/{org}/list_attestations_for_criteria` selects by (reference §8.4). */
export interface CriteriaQuery {
  flowId?: string;
  type?: string;
  name?: string;
  /** The template slot of an artifact attestation's name (`slot.name`). */
  targetArtifact?: string;
  /** Only attestations of these commits. */
  commits?: readonly string[];
}

/** An attestation with the commit it speaks about ('' when it names none) and its template slot (null when none). */
export type CommitAttestation = Attestation & { commit: string; slot: string | null };

export interface AttestationStore {
  create(attestation: NewAttestation): Promise<void>;
  byId(orgId: number, id: string): Promise<Attestation | undefined>;
  /** The org's attestations with these ids, in the order of the ids (those not found left out). */
  byIds(orgId: number, ids: readonly string[]): Promise<Attestation[]>;
  /** Every attestation of the trail, oldest first. */
  inTrail(trailId: string): Promise<Attestation[]>;
  /** inTrail for several trails in a few statements. */
  inTrails(trailIds: readonly string[]): Promise<Map<string, Attestation[] | Error>>;
  /** Whether a committed attestation keeps its evidence in the file with this sha256 (an index lookup). */
  referencesEvidence(sha256: string): Promise<boolean>;
  /** Every version of a name in a trail, newest first. */
  versions(trailId: string, name: string): Promise<Attestation[]>;
  /** A flow's attestations in a time window, newest first. */
  pageOfFlow(
    flowId: string,
    window: { from?: number; to?: number },
    limit: number,
    offset: number,
  ): Promise<{ total: number; attestations: Array<Attestation | Unreadable> }>;
  /** The org's attestations matching `query`, oldest first, at most `limit`. */
  query(orgId: number, query: AttestationQuery, limit: number): Promise<Attestation[]>;
  /**
   * The attestations of live flows that a criteria query selects, oldest first, each with its
   * commit: its own git_commit_info's, else that of the artifact it names in its trail, else its trail's.
   */
  forCriteria(orgId: number, query: CriteriaQuery): Promise<CommitAttestation[]>;
}

export interface AttestationRow {
  seq: number;
  id: string;
  org_id: number;
  flow_id: string;
  trail_id: string;
  name: string;
  type: string;
  is_override: number;
  is_compliant: number;
  artifact_fingerprint: string | null;
  target_artifact: string | null;
  evidence_sha256: string | null;
  evidence_filename: string | null;
  body: string;
  reported_by: string;
  created_at: number;
  flow_name: string;
  trail_name: string;
  [column: string]: unknown;
}

function toAttestation(row: AttestationRow): Attestation {
  return {
    id: row.id,
    orgId: row.org_id,
    flowId: row.flow_id,
    trailId: row.trail_id,
    name: row.name,
    type: row.type,
    isOverride: row.is_override === 1,
    isCompliant: row.is_compliant === 1,
    artifactFingerprint: row.artifact_fingerprint,
    targetArtifact: row.target_artifact,
    evidence:
      row.evidence_sha256 === null
        ? null
        : { sha256: row.evidence_sha256, filename: row.evidence_filename ?? 'evidence' },
    body: parseJson(row.body, {}),
    reportedBy: row.reported_by,
    createdAt: row.created_at,
    flowName: row.flow_name,
    trailName: row.trail_name,
  };
}

/**
 * Rows with their flow's and trail's names, each looked up by key: a join lets the planner go
 * through every flow of the org first, which grows with the store.
 */
const NAMED = `a.*, (SELECT name FROM flows WHERE id = a.flow_id) AS flow_name, (SELECT name FROM trails WHERE id = a.trail_id) AS trail_name`;
const SELECT = `SELECT ${NAMED} FROM attestations a`;

/** A flow's attestations, numbered in list order (migration 243). */
function ofFlow(flowId: string): NumberedPartition {
  return { table: 'attestations', column: 'flow_pos', where: 'flow_id = ?', params: [flowId], time: 'seq', tie: 'seq' };
}

export function attestationStore(sql: Statements): AttestationStore {
  return {
    async create(attestation) {
      // The flow's count, raised first, is the attestation's number: raising it locks the count's
      // row until commit, so on PostgreSQL a concurrent commit numbering the same flow's
      // attestations waits, and numbers follow seq (taken by the insert, after the lock).
      await sql.write(
        'INSERT INTO attestation_counts (flow_id, n) VALUES (?, 1) ON CONFLICT (flow_id) DO UPDATE SET n = attestation_counts.n + 1',
        attestation.flowId,
      );
      await sql.write(
        `INSERT INTO attestations (id, org_id, flow_id, trail_id, name, type, is_override, is_compliant, artifact_fingerprint, target_artifact,
                                   evidence_sha256, evidence_filename, body, reported_by, created_at, flow_pos)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT n FROM attestation_counts WHERE flow_id = ?))`,
        attestation.id,
        attestation.orgId,
        attestation.flowId,
        attestation.trailId,
        attestation.name,
        attestation.type,
        attestation.isOverride ? 1 : 0,
        attestation.isCompliant ? 1 : 0,
        attestation.artifactFingerprint,
        attestation.targetArtifact,
        attestation.evidence?.sha256 ?? null,
        attestation.evidence?.filename ?? null,
        JSON.stringify(attestation.body),
        attestation.reportedBy,
        attestation.createdAt,
        attestation.flowId,
      );
    },
    async byId(orgId, id) {
      const row = await sql.get<AttestationRow>(`${SELECT} WHERE a.org_id = ? AND a.id = ?`, orgId, id);
      return row === undefined ? undefined : toAttestation(row);
    },
    async byIds(orgId, ids) {
      if (ids.length === 0) return [];
      const rows = await sql.all<AttestationRow>(
        `${SELECT} WHERE a.org_id = ? AND a.id IN (${placeholderList(ids.length)})`,
        orgId,
        ...ids,
      );
      const byId = new Map(rows.map((row) => [row.id, toAttestation(row)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    async inTrails(trailIds) {
      return rowsByKey(
        trailIds,
        (keys) =>
          sql.all<AttestationRow>(
            `${SELECT} WHERE a.trail_id IN (${placeholderList(keys.length)}) ORDER BY a.trail_id, a.seq`,
            ...keys,
          ),
        (row) => row.trail_id,
        toAttestation,
      );
    },
    async inTrail(trailId) {
      return (await sql.all<AttestationRow>(`${SELECT} WHERE a.trail_id = ? ORDER BY a.seq`, trailId)).map(
        toAttestation,
      );
    },
    async referencesEvidence(sha256) {
      return (
        (await sql.get('SELECT 1 AS found FROM attestations WHERE evidence_sha256 = ? LIMIT 1', sha256)) !== undefined
      );
    },
    async versions(trailId, name) {
      return (
        await sql.all<AttestationRow>(
          `${SELECT} WHERE a.trail_id = ? AND a.name = ? ORDER BY a.seq DESC`,
          trailId,
          name,
        )
      ).map(toAttestation);
    },
    async pageOfFlow(flowId, window, limit, offset) {
      const conditions = ['a.flow_id = ?'];
      const params: Param[] = [flowId];
      withinWindow(conditions, params, 'a.created_at', window);
      const clause = conditions.join(' AND ');
      let total: number;
      let rows: AttestationRow[];
      if (params.length === 1) {
        // The whole flow: every number is listed, so the total is the greatest and a page a seek.
        const bound = newestNumberAt(ofFlow(flowId), offset);
        total = Number(
          (await sql.get<{ n: number }>(
            'SELECT coalesce(max(flow_pos), 0) AS n FROM attestations WHERE flow_id = ?',
            flowId,
          ))!.n,
        );
        rows = await sql.all<AttestationRow>(
          `${SELECT} WHERE ${clause} AND a.flow_pos <= ${bound.sql} ORDER BY a.flow_pos DESC LIMIT ?`,
          ...params,
          ...bound.params,
          limit,
        );
      } else {
        // A time window: its total counts its rows, and its pages walk no more than those.
        total = Number(
          (await sql.get<{ n: number }>(`SELECT count(*) AS n FROM attestations a WHERE ${clause}`, ...params))!.n,
        );
        rows = await sql.all<AttestationRow>(
          `${SELECT} WHERE ${clause} ORDER BY a.flow_pos DESC LIMIT ? OFFSET ?`,
          ...params,
          limit,
          offset,
        );
      }
      return { total, attestations: decodeEach(rows, toAttestation) };
    },
    async query(orgId, query, limit) {
      const conditions = ['a.org_id = ?', inLiveFlow('a')];
      const params: Param[] = [orgId];
      const add = (condition: string, value: Param | undefined): void => {
        if (value === undefined) return;
        conditions.push(condition);
        params.push(value);
      };
      add('a.id = ?', query.id);
      add('a.name = ?', query.name);
      add('a.flow_id = ?', query.flowId);
      add('a.type = ?', query.type);
      add('a.is_compliant = ?', query.isCompliant === undefined ? undefined : query.isCompliant ? 1 : 0);
      add('a.created_at >= ?', query.from);
      add('a.created_at <= ?', query.to);
      add('a.seq > (SELECT seq FROM attestations WHERE id = ?)', query.afterId);
      const where = conditions.join(' AND ');
      if (query.nameRegex === undefined)
        return (await sql.all<AttestationRow>(`${SELECT} WHERE ${where} ORDER BY a.seq LIMIT ?`, ...params, limit)).map(
          toAttestation,
        );
      const seqs = await seqsNamed(sql, linearRegex(query.nameRegex), where, params, limit);
      if (seqs.length === 0) return [];
      return (
        await sql.all<AttestationRow>(
          `${SELECT} WHERE a.seq IN (${placeholderList(seqs.length)}) ORDER BY a.seq`,
          ...seqs,
        )
      ).map(toAttestation);
    },
    async forCriteria(orgId, query) {
      const conditions = ['a.org_id = ?', inLiveFlow('a')];
      const params: Param[] = [orgId];
      for (const [condition, value] of [
        ['a.flow_id = ?', query.flowId],
        ['a.type = ?', query.type],
        ['a.name = ?', query.name],
      ] as const) {
        if (value === undefined) continue;
        conditions.push(condition);
        params.push(value);
      }
      const sha = (column: string) =>
        `CASE WHEN json_valid(${column}) THEN json_extract(${column}, '$.git_commit_info.sha1') END`;
      const commit = `coalesce(${sha('a.body')},
          (SELECT x.git_commit FROM artifacts x WHERE x.trail_id = a.trail_id AND x.fingerprint = a.artifact_fingerprint ORDER BY x.seq DESC LIMIT 1),
          (SELECT ${sha('t.body')} FROM trails t WHERE t.id = a.trail_id), '')`;
      // The slot: named by the attestation, or that of the artifact it names in its trail.
      const slot = `coalesce(a.target_artifact, (SELECT x.template_reference_name FROM artifacts x
          WHERE x.trail_id = a.trail_id AND x.fingerprint = a.artifact_fingerprint ORDER BY x.seq DESC LIMIT 1))`;
      const outer: string[] = [];
      const outerParams: Param[] = [];
      if (query.commits !== undefined && query.commits.length > 0) {
        outer.push(`c.commit_sha IN (${placeholderList(query.commits.length)})`);
        outerParams.push(...query.commits);
      }
      if (query.targetArtifact !== undefined) {
        outer.push('c.slot = ?');
        outerParams.push(query.targetArtifact);
      }
      const rows = await sql.all<AttestationRow & { commit_sha: string; slot: string | null }>(
        `SELECT * FROM (SELECT ${NAMED}, ${commit} AS commit_sha, ${slot} AS slot FROM attestations a WHERE ${conditions.join(' AND ')}) c
         ${outer.length === 0 ? '' : `WHERE ${outer.join(' AND ')}`} ORDER BY c.seq`,
        ...params,
        ...outerParams,
      );
      return rows.map((row) => ({ ...toAttestation(row), commit: String(row.commit_sha), slot: row.slot }));
    },
  };
}

/** How many names a name_regex query reads per statement: a few milliseconds of matching between turns of the event loop. */
const NAME_SCAN_CHUNK = 1000;

/**
 * The seqs of the first `limit` attestations (in seq order) that meet `where` and whose name the
 * pattern matches. Names are matched here, on the linear-time engine, on both engines alike, so
 * PostgreSQL answers as SQLite does; they are read in chunks in seq order, so a page and its
 * cursor are those of the filter applied in SQL, and the event loop turns between chunks.
 */
async function seqsNamed(
  sql: Statements,
  pattern: LinearRegex,
  where: string,
  params: readonly Param[],
  limit: number,
): Promise<number[]> {
  const found: number[] = [];
  let after = -1;
  for (;;) {
    const rows = await sql.all<{ seq: number; name: string }>(
      `SELECT a.seq, a.name FROM attestations a WHERE ${where} AND a.seq > ? ORDER BY a.seq LIMIT ?`,
      ...params,
      after,
      NAME_SCAN_CHUNK,
    );
    for (const row of rows) {
      if (!pattern.test(row.name)) continue;
      found.push(Number(row.seq));
      if (found.length === limit) return found;
    }
    if (rows.length < NAME_SCAN_CHUNK) return found;
    after = Number(rows[rows.length - 1].seq);
    await setImmediate();
  }
}
