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
import { newestNumberAt, numbersFor, numberVacated, type NumberedPartition } from './listPositions.ts';

export interface Artifact {
  id: string;
  orgId: number;
  flowId: string;
  trailId: string;
  fingerprint: string;
  templateReferenceName: string;
  filename: string;
  gitCommit: string;
  repoName: string | null;
  /** git_commit_info, repo_info, build_url, commit_url, repo_url, external_urls, annotations, user_data. */
  body: Record<string, unknown>;
  createdAt: number;
  lastModifiedAt: number;
  /** Joined for views. */
  flowName: string;
  trailName: string;
  /** Its trail's compliance state as stored on write (migration 203); null where none is stored. */
  trailState: string | null;
}

export type NewArtifact = Omit<Artifact, 'flowName' | 'trailName' | 'trailState'>;

export interface ArtifactFilter {
  flowId?: string;
  repoName?: string;
}

/** Artifacts of one flow whose trails stand in one state, counted (the state null where none is stored). */
export interface ArtifactTally {
  flowName: string;
  state: string | null;
  count: number;
  first: number;
  last: number;
}

export interface ArtifactStore {
  create(artifact: NewArtifact): Promise<void>;
  update(
    id: string,
    changes: { filename: string; gitCommit: string; repoName: string | null; body: Record<string, unknown> },
    now: number,
  ): Promise<void>;
  inTrailUnder(trailId: string, fingerprint: string, templateReferenceName: string): Promise<Artifact | undefined>;
  inTrail(trailId: string): Promise<Artifact[]>;
  /** inTrail for several trails in a few statements. */
  inTrails(trailIds: readonly string[]): Promise<Map<string, Artifact[] | Error>>;
  /** Artifacts of live flows whose fingerprint starts with `prefix`, newest first. */
  byFingerprintPrefix(orgId: number, prefix: string, flowId?: string): Promise<Artifact[]>;
  /** Artifacts of live flows whose commit starts with `prefix`, newest first. */
  byCommitPrefix(orgId: number, prefix: string, flowId?: string): Promise<Artifact[]>;
  /** Newest first. */
  page(orgId: number, filter: ArtifactFilter, limit: number, offset: number): Promise<Array<Artifact | Unreadable>>;
  /** At most `limit` live artifacts whose file name contains `text` (lowercase), newest first. */
  namedLike(orgId: number, text: string, limit: number): Promise<Artifact[]>;
  repoExists(orgId: number, repoName: string): Promise<boolean>;
  /** How many artifacts `page` lists for the filter: its numbers less its gaps, without walking them. */
  count(orgId: number, filter: ArtifactFilter): Promise<number>;
  /** The org's artifacts of live flows created in the window (bounds inclusive), by flow and trail state. */
  tally(orgId: number, window: { from?: number; to?: number }): Promise<ArtifactTally[]>;
}

export interface ArtifactRow {
  id: string;
  org_id: number;
  flow_id: string;
  trail_id: string;
  fingerprint: string;
  template_reference_name: string;
  filename: string;
  git_commit: string;
  repo_name: string | null;
  body: string;
  created_at: number;
  last_modified_at: number;
  flow_name: string;
  trail_name: string;
  trail_state: string | null;
  [column: string]: unknown;
}

function toArtifact(row: ArtifactRow): Artifact {
  return {
    id: row.id,
    orgId: row.org_id,
    flowId: row.flow_id,
    trailId: row.trail_id,
    fingerprint: row.fingerprint,
    templateReferenceName: row.template_reference_name,
    filename: row.filename,
    gitCommit: row.git_commit,
    repoName: row.repo_name,
    body: parseJson(row.body, {}),
    createdAt: row.created_at,
    lastModifiedAt: row.last_modified_at,
    flowName: row.flow_name,
    trailName: row.trail_name,
    trailState: row.trail_state,
  };
}

/**
 * Rows with their flow's and trail's names and their trail's stored state, each looked up by key:
 * a join lets the planner go through every flow of the org first, which grows with the store.
 */
const SELECT = `SELECT a.*, (SELECT name FROM flows WHERE id = a.flow_id) AS flow_name, (SELECT name FROM trails WHERE id = a.trail_id) AS trail_name,
                       (SELECT compliance_state FROM trails WHERE id = a.trail_id) AS trail_state
                  FROM artifacts a`;

/** Above every string that starts with the prefix: the bound of its index range. */
function pastPrefix(prefix: string): string {
  return `${prefix}\u{10FFFF}`;
}

/** The numbering of an org's artifacts, a flow's or an org's of one repo (migration 242). */
const numbered = {
  org: (orgId: number): NumberedPartition => ({
    ...NUMBERED,
    column: 'org_pos',
    where: 'org_id = ?',
    params: [orgId],
    gaps: { list: 'artifacts', orgId, part: '' },
  }),
  flow: (flowId: string): NumberedPartition => ({
    ...NUMBERED,
    column: 'flow_pos',
    where: 'flow_id = ?',
    params: [flowId],
  }),
  repo: (orgId: number, repoName: string): NumberedPartition => ({
    ...NUMBERED,
    column: 'repo_pos',
    where: 'org_id = ? AND repo_name = ?',
    params: [orgId, repoName],
    gaps: { list: 'artifacts-repo', orgId, part: repoName },
  }),
};

const NUMBERED = { table: 'artifacts', time: 'created_at', tie: 'seq' } as const;

export function artifactStore(sql: Statements): ArtifactStore {
  /** The live artifacts of the org matching `filter` in `order`, at most `limit` after `offset`. */
  const listed = async (
    orgId: number,
    filter: Array<[string, Param[]]>,
    order: string,
    limit = -1,
    offset = 0,
  ): Promise<ArtifactRow[]> => {
    const conditions = ['a.org_id = ?', inLiveFlow('a'), ...filter.map(([condition]) => condition)];
    return await sql.all<ArtifactRow>(
      `${SELECT} WHERE ${conditions.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`,
      orgId,
      ...filter.flatMap(([, params]) => params),
      limit,
      offset,
    );
  };
  /** A newest-first page of the live artifacts of a numbered partition: a seek, however deep the page. */
  const pageOf = async (partition: NumberedPartition, limit: number, offset: number): Promise<ArtifactRow[]> => {
    const bound = newestNumberAt(partition, offset);
    return await sql.all<ArtifactRow>(
      `${SELECT} WHERE ${partition.where} AND ${inLiveFlow('a')} AND a.${partition.column} <= ${bound.sql}
       ORDER BY a.${partition.column} DESC LIMIT ?`,
      ...partition.params,
      ...bound.params,
      limit,
    );
  };
  /** Newest first, the live artifacts whose `column` starts with `prefix`. */
  const byPrefix = async (
    column: 'a.fingerprint' | 'lower(a.git_commit)',
    orgId: number,
    prefix: string,
    flowId: string | undefined,
  ): Promise<Artifact[]> => {
    const filter: Array<[string, Param[]]> = [[`${column} >= ? AND ${column} < ?`, [prefix, pastPrefix(prefix)]]];
    if (flowId !== undefined) filter.push(['a.flow_id = ?', [flowId]]);
    return (await listed(orgId, filter, 'a.seq DESC')).map(toArtifact);
  };
  return {
    async create(artifact) {
      const partitions = [numbered.flow(artifact.flowId), numbered.org(artifact.orgId)];
      if (artifact.repoName !== null) partitions.push(numbered.repo(artifact.orgId, artifact.repoName));
      const [flowPos, orgPos, repoPos = 0] = await numbersFor(sql, partitions, artifact.createdAt);
      await sql.run(
        `INSERT INTO artifacts (id, org_id, flow_id, trail_id, fingerprint, template_reference_name, filename, git_commit, repo_name, body, created_at, last_modified_at,
                                flow_pos, org_pos, repo_pos)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        artifact.id,
        artifact.orgId,
        artifact.flowId,
        artifact.trailId,
        artifact.fingerprint,
        artifact.templateReferenceName,
        artifact.filename,
        artifact.gitCommit,
        artifact.repoName,
        JSON.stringify(artifact.body),
        artifact.createdAt,
        artifact.lastModifiedAt,
        flowPos,
        orgPos,
        repoPos,
      );
    },
    async update(id, changes, now) {
      // A new repo moves the artifact from its repo's numbering to the other's, in its place by time.
      const stored = (await sql.get<{
        org_id: number;
        repo_name: string | null;
        repo_pos: number;
        created_at: number;
        seq: number;
      }>('SELECT org_id, repo_name, repo_pos, created_at, seq FROM artifacts WHERE id = ?', id))!;
      let repoPos = stored.repo_pos;
      if (changes.repoName !== stored.repo_name) {
        if (stored.repo_name !== null)
          await numberVacated(sql, numbered.repo(stored.org_id, stored.repo_name), stored.repo_pos);
        repoPos =
          changes.repoName === null
            ? 0
            : (
                await numbersFor(sql, [numbered.repo(stored.org_id, changes.repoName)], stored.created_at, stored.seq)
              )[0];
      }
      await sql.run(
        'UPDATE artifacts SET filename = ?, git_commit = ?, repo_name = ?, repo_pos = ?, body = ?, last_modified_at = ? WHERE id = ?',
        changes.filename,
        changes.gitCommit,
        changes.repoName,
        repoPos,
        JSON.stringify(changes.body),
        now,
        id,
      );
    },
    async inTrailUnder(trailId, fingerprint, templateReferenceName) {
      const row = await sql.get<ArtifactRow>(
        `${SELECT} WHERE a.trail_id = ? AND a.fingerprint = ? AND a.template_reference_name = ?`,
        trailId,
        fingerprint,
        templateReferenceName,
      );
      return row === undefined ? undefined : toArtifact(row);
    },
    async inTrails(trailIds) {
      return rowsByKey(
        trailIds,
        (keys) =>
          sql.all<ArtifactRow>(
            `${SELECT} WHERE a.trail_id IN (${placeholderList(keys.length)}) ORDER BY a.trail_id, a.seq`,
            ...keys,
          ),
        (row) => row.trail_id,
        toArtifact,
      );
    },
    async inTrail(trailId) {
      return (await sql.all<ArtifactRow>(`${SELECT} WHERE a.trail_id = ? ORDER BY a.seq`, trailId)).map(toArtifact);
    },
    async byFingerprintPrefix(orgId, prefix, flowId) {
      return byPrefix('a.fingerprint', orgId, prefix, flowId);
    },
    async byCommitPrefix(orgId, prefix, flowId) {
      return byPrefix('lower(a.git_commit)', orgId, prefix, flowId);
    },
    async page(orgId, filter, limit, offset) {
      const { flowId, repoName } = filter;
      let rows: ArtifactRow[];
      if (flowId !== undefined && repoName !== undefined) {
        // Both: the flow's artifacts of the repo, walked in the flow's order (no numbering of its own).
        rows = await listed(
          orgId,
          [['a.flow_id = ? AND a.repo_name = ?', [flowId, repoName]]],
          'a.flow_pos DESC',
          limit,
          offset,
        );
      } else if (flowId !== undefined) rows = await pageOf(numbered.flow(flowId), limit, offset);
      else if (repoName !== undefined) rows = await pageOf(numbered.repo(orgId, repoName), limit, offset);
      else rows = await pageOf(numbered.org(orgId), limit, offset);
      return decodeEach(rows, toArtifact);
    },
    async count(orgId, { flowId, repoName }) {
      const number = async (partition: NumberedPartition): Promise<number> => {
        const gaps = partition.gaps;
        const row = await sql.get<{ n: number }>(
          `SELECT coalesce(max(${partition.column}), 0) - ${gaps === undefined ? '0' : '(SELECT count(*) FROM list_gaps WHERE list = ? AND org_id = ? AND part = ?)'} AS n
             FROM ${partition.table} WHERE ${partition.where}`,
          ...(gaps === undefined ? [] : [gaps.list, gaps.orgId, gaps.part]),
          ...partition.params,
        );
        return Number(row!.n);
      };
      if (flowId !== undefined && repoName !== undefined) {
        const row = await sql.get<{ n: number }>(
          'SELECT count(*) AS n FROM artifacts WHERE flow_id = ? AND repo_name = ?',
          flowId,
          repoName,
        );
        return Number(row!.n);
      }
      if (flowId !== undefined) return await number(numbered.flow(flowId));
      return await number(repoName === undefined ? numbered.org(orgId) : numbered.repo(orgId, repoName));
    },
    async tally(orgId, window) {
      const conditions = ['a.org_id = ?', 'f.archived_at IS NULL'];
      const params: Param[] = [orgId];
      withinWindow(conditions, params, 'a.created_at', window);
      const rows = await sql.all<{ flow_name: string; state: string | null; n: number; first: number; last: number }>(
        `SELECT f.name AS flow_name, t.compliance_state AS state, count(*) AS n, min(a.created_at) AS first, max(a.created_at) AS last
           FROM artifacts a JOIN flows f ON f.id = a.flow_id JOIN trails t ON t.id = a.trail_id
          WHERE ${conditions.join(' AND ')} GROUP BY f.name, t.compliance_state ORDER BY f.name`,
        ...params,
      );
      return rows.map((row) => ({
        flowName: row.flow_name,
        state: row.state,
        count: Number(row.n),
        first: Number(row.first),
        last: Number(row.last),
      }));
    },
    async namedLike(orgId, text, limit) {
      return (await listed(orgId, [['instr(lower(a.filename), ?) > 0', [text]]], 'a.org_pos DESC', limit)).map(
        toArtifact,
      );
    },
    async repoExists(orgId, repoName) {
      return (
        (await sql.get(
          'SELECT 1 AS found FROM artifacts WHERE org_id = ? AND repo_name = ? LIMIT 1',
          orgId,
          repoName,
        )) !== undefined
      );
    },
  };
}
