// Deployments: the `started` events of environments, each numbered in its environment, its org and
// each repo of its provenance as it was recorded (migration 281). A page of a whole list is a seek
// on those numbers; a time window or a flow picks rows one by one, so its pages count and walk
// only the rows it picks.
import { withinWindow, type Param, type Statements } from './db.ts';

export interface Deployment {
  environmentName: string;
  environmentType: string;
  snapshotIndex: number;
  deployedAt: number;
  artifactName: string;
  fingerprint: string;
  gitCommit: string;
  flowNames: string[];
  trailNames: string[];
  repoNames: string[];
  /** The artifact's compliance in the snapshot that saw it start; null without a policy. */
  artifactCompliance: boolean | null;
}

export interface DeploymentFilter {
  fromTimestamp?: number;
  toTimestamp?: number;
  /** Only deployments of artifacts attested in this flow. */
  flowName?: string;
}

export interface DeploymentPage {
  total: number;
  deployments: Deployment[];
}

/** How many deployments one environment had in a window, and the first and last of them. */
export interface EnvironmentDeployments {
  environmentName: string;
  count: number;
  first: number;
  last: number;
}

/** Whose deployments a list holds: an org's, an environment's, or those of an org's repo. */
export type DeploymentList = { org: number } | { environment: number } | { org: number; repo: string };

export interface DeploymentStore {
  /** A newest-first page of a list's deployments that pass the filter. */
  page(list: DeploymentList, filter: DeploymentFilter, limit: number, offset: number): Promise<DeploymentPage>;
  /** The latest deployment into the environment of a fingerprint that starts with `prefix`. */
  latestOf(environmentId: number, prefix: string): Promise<Deployment | undefined>;
  /** When each of the environment's deployments in the window happened, oldest first. */
  timesIn(environmentId: number, from: number, to: number): Promise<number[]>;
  /** A repo's deployments in the window (unbounded where undefined), by environment, by name. */
  byEnvironment(orgId: number, repoName: string, window: DeploymentFilter): Promise<EnvironmentDeployments[]>;
  /** Whether any deployment names the repo. */
  repoDeployed(orgId: number, repoName: string): Promise<boolean>;
}

interface DeploymentRow {
  environment_name: string;
  environment_type: string;
  snapshot_idx: number;
  deployed_at: number;
  artifact_name: string;
  fingerprint: string;
  git_commit: string;
  flow_names: string;
  trail_names: string;
  repo_names: string;
  artifact_compliance: number | null;
  [column: string]: unknown;
}

function names(json: string): string[] {
  return json === '[]' ? [] : (JSON.parse(json) as string[]);
}

function toDeployment(row: DeploymentRow): Deployment {
  return {
    environmentName: row.environment_name,
    environmentType: row.environment_type,
    snapshotIndex: Number(row.snapshot_idx),
    deployedAt: row.deployed_at,
    artifactName: row.artifact_name,
    fingerprint: row.fingerprint,
    gitCommit: row.git_commit,
    flowNames: names(row.flow_names),
    trailNames: names(row.trail_names),
    repoNames: names(row.repo_names),
    artifactCompliance: row.artifact_compliance === null ? null : Number(row.artifact_compliance) === 1,
  };
}

/** The deployment with its event's facts and its environment's name and type. */
const SELECT = `SELECT d.deployed_at, d.fingerprint, ev.snapshot_idx, ev.artifact_name, ev.git_commit, ev.flow_names,
                       ev.trail_names, ev.repo_names, ev.artifact_compliance, en.name AS environment_name, en.type AS environment_type
                  FROM deployments d JOIN environment_events ev ON ev.id = d.event_id JOIN environments en ON en.id = d.environment_id`;

/** A list's rows, the column that numbers them, and the count of its numbers (it has no gaps). */
function numbering(list: DeploymentList): {
  join: string;
  where: string;
  params: Param[];
  column: string;
  top: string;
} {
  if ('environment' in list)
    return {
      join: '',
      where: 'd.environment_id = ?',
      params: [list.environment],
      column: 'd.env_pos',
      top: 'SELECT coalesce(max(env_pos), 0) AS n FROM deployments WHERE environment_id = ?',
    };
  if ('repo' in list)
    return {
      join: 'JOIN deployment_repos dr ON dr.event_id = d.event_id',
      where: 'dr.org_id = ? AND dr.repo_name = ?',
      params: [list.org, list.repo],
      column: 'dr.repo_pos',
      top: 'SELECT coalesce(max(repo_pos), 0) AS n FROM deployment_repos WHERE org_id = ? AND repo_name = ?',
    };
  return {
    join: '',
    where: 'd.org_id = ? AND d.org_pos IS NOT NULL',
    params: [list.org],
    column: 'd.org_pos',
    top: 'SELECT coalesce(max(org_pos), 0) AS n FROM deployments WHERE org_id = ?',
  };
}

/** The filter's conditions on a deployment and its event. */
function conditionsOf(filter: DeploymentFilter): { sql: string[]; params: Param[] } {
  const sql: string[] = [];
  const params: Param[] = [];
  withinWindow(sql, params, 'd.deployed_at', { from: filter.fromTimestamp, to: filter.toTimestamp });
  if (filter.flowName !== undefined) {
    sql.push('EXISTS (SELECT 1 FROM json_each(ev.flow_names) WHERE value = ?)');
    params.push(filter.flowName);
  }
  return { sql, params };
}

export function deploymentStore(sql: Statements): DeploymentStore {
  return {
    async page(list, filter, limit, offset) {
      const { join, where, params, column, top } = numbering(list);
      const picked = conditionsOf(filter);
      const from = `${SELECT} ${join} WHERE ${where}`;
      if (picked.sql.length === 0) {
        // The whole list: its numbers run 1..n, so the page below the newest `offset` is a range.
        const total = Number((await sql.get<{ n: number }>(top, ...params))!.n);
        const rows = await sql.all<DeploymentRow>(
          `${from} AND ${column} <= ? ORDER BY ${column} DESC LIMIT ?`,
          ...params,
          total - offset,
          limit,
        );
        return { total, deployments: rows.map(toDeployment) };
      }
      const condition = `${where} AND ${picked.sql.join(' AND ')}`;
      const conditionParams = [...params, ...picked.params];
      const counted = await sql.get<{ n: number }>(
        `SELECT count(*) AS n FROM deployments d JOIN environment_events ev ON ev.id = d.event_id ${join} WHERE ${condition}`,
        ...conditionParams,
      );
      const rows = await sql.all<DeploymentRow>(
        `${SELECT} ${join} WHERE ${condition} ORDER BY ${column} DESC LIMIT ? OFFSET ?`,
        ...conditionParams,
        limit,
        offset,
      );
      return { total: Number(counted!.n), deployments: rows.map(toDeployment) };
    },
    async latestOf(environmentId, prefix) {
      const row = await sql.get<DeploymentRow>(
        `${SELECT} WHERE d.environment_id = ? AND d.fingerprint >= ? AND d.fingerprint < ? ORDER BY d.env_pos DESC LIMIT 1`,
        environmentId,
        prefix,
        `${prefix}\u{10FFFF}`,
      );
      return row === undefined ? undefined : toDeployment(row);
    },
    async timesIn(environmentId, from, to) {
      const rows = await sql.all<{ deployed_at: number }>(
        'SELECT deployed_at FROM deployments WHERE environment_id = ? AND deployed_at >= ? AND deployed_at < ? ORDER BY deployed_at',
        environmentId,
        from,
        to,
      );
      return rows.map((row) => Number(row.deployed_at));
    },
    async byEnvironment(orgId, repoName, window) {
      const picked = conditionsOf(window);
      const rows = await sql.all<{ environment_name: string; n: number; first: number; last: number }>(
        `SELECT en.name AS environment_name, count(*) AS n, min(d.deployed_at) AS first, max(d.deployed_at) AS last
           FROM deployment_repos dr JOIN deployments d ON d.event_id = dr.event_id
           JOIN environment_events ev ON ev.id = d.event_id JOIN environments en ON en.id = d.environment_id
          WHERE ${['dr.org_id = ? AND dr.repo_name = ?', ...picked.sql].join(' AND ')}
          GROUP BY en.id, en.name ORDER BY en.name, en.id`,
        orgId,
        repoName,
        ...picked.params,
      );
      return rows.map((row) => ({
        environmentName: row.environment_name,
        count: Number(row.n),
        first: Number(row.first),
        last: Number(row.last),
      }));
    },
    async repoDeployed(orgId, repoName) {
      const row = await sql.get(
        'SELECT 1 AS found FROM deployment_repos WHERE org_id = ? AND repo_name = ? LIMIT 1',
        orgId,
        repoName,
      );
      return row !== undefined;
    },
  };
}
