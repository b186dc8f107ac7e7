// Deployments (reference §8.4): an artifact starting to run in an environment, as its `started`
// event recorded it (store/deployments.ts). Listed per org, environment and repo, the latest of an
// artifact in an environment, how often an environment gets them, a repo's statistics, and the
// repo's artifacts running now, from each environment's latest snapshot.
import type {
  Deployment as DeploymentAnswer,
  DeploymentFrequency,
  LiveArtifact,
  RepoDeploymentStatistics,
} from '../../../shared/contract/types.ts';
import { nowSeconds } from '../clock.ts';
import { invalid, withInput } from '../errors.ts';
import { deploymentNotFound, repoNotFound } from '../notFound.ts';
import {
  bucketCount,
  deploymentBuckets,
  INTERVAL_SECONDS,
  MAX_BUCKETS,
  type FrequencyInterval,
} from '../rules/deploymentFrequency.ts';
import { isUnreadable } from '../store/db.ts';
import type { DeploymentFilter, DeploymentList } from '../store/deployments.ts';
import type { Org } from '../store/orgs.ts';
import {
  deploymentFrequencyView,
  deploymentView,
  liveArtifactView,
  repoDeploymentStatisticsView,
} from '../views/deployments.ts';
import { pageLinks, paginationOf, type Pagination } from '../views/paging.ts';
import type { ServiceDeps } from './index.ts';
import { environmentOr404 } from './lookups.ts';
import { latestSnapshotOf } from './snapshotDocuments.ts';

/** The time window and flow a list is narrowed to, as the client sends them. */
export interface DeploymentQuery {
  from_timestamp?: number;
  to_timestamp?: number;
  flow_name?: string;
}

export interface DeploymentPageAnswer {
  data: DeploymentAnswer[];
  pagination: Pagination;
  _links: Record<string, { href: string }>;
}

/** A page of a list: its number, its size and the rows before it. */
export interface PageWanted {
  page: number;
  perPage: number;
  offset: number;
}

/** The window a deployment_frequency answer covers by default: the last 30 days. */
const DEFAULT_WINDOW = 30 * 86_400;

function filterOf(query: DeploymentQuery): DeploymentFilter {
  if (
    query.from_timestamp !== undefined &&
    query.to_timestamp !== undefined &&
    query.from_timestamp > query.to_timestamp
  )
    throw invalid({ 'query.to_timestamp': withInput('Must not be before from_timestamp', query.to_timestamp) });
  return { fromTimestamp: query.from_timestamp, toTimestamp: query.to_timestamp, flowName: query.flow_name };
}

export function deploymentService({ store, publicUrl }: Pick<ServiceDeps, 'store' | 'publicUrl'>) {
  /** A repo the org has artifacts or deployments of, or 404. */
  const knownRepo = async (org: Org, repoName: string): Promise<void> => {
    if (
      !(await store.artifacts.repoExists(org.id, repoName)) &&
      !(await store.deployments.repoDeployed(org.id, repoName))
    )
      throw repoNotFound(repoName);
  };

  const pageAnswer = async (
    org: Org,
    list: DeploymentList,
    query: DeploymentQuery,
    wanted: PageWanted,
    requestUrl: string,
  ): Promise<DeploymentPageAnswer> => {
    const { total, deployments } = await store.deployments.page(list, filterOf(query), wanted.perPage, wanted.offset);
    const host = publicUrl();
    const pagination = paginationOf(total, wanted.page, wanted.perPage);
    return {
      data: deployments.map((deployment) => deploymentView(host, org.name, deployment)),
      pagination,
      _links: pageLinks(host, requestUrl, pagination),
    };
  };

  return {
    /** The org's deployments (of one environment when named), newest first. */
    async ofOrg(
      org: Org,
      query: DeploymentQuery & { environment_name?: string },
      wanted: PageWanted,
      requestUrl: string,
    ): Promise<DeploymentPageAnswer> {
      const list: DeploymentList =
        query.environment_name === undefined
          ? { org: org.id }
          : { environment: (await environmentOr404(store, org, query.environment_name)).id };
      return await pageAnswer(org, list, query, wanted, requestUrl);
    },

    async ofEnvironment(
      org: Org,
      environmentName: string,
      query: DeploymentQuery,
      wanted: PageWanted,
      requestUrl: string,
    ): Promise<DeploymentPageAnswer> {
      const environment = await environmentOr404(store, org, environmentName);
      return await pageAnswer(org, { environment: environment.id }, query, wanted, requestUrl);
    },

    async ofRepo(
      org: Org,
      repoName: string,
      query: DeploymentQuery,
      wanted: PageWanted,
      requestUrl: string,
    ): Promise<DeploymentPageAnswer> {
      await knownRepo(org, repoName);
      return await pageAnswer(org, { org: org.id, repo: repoName }, query, wanted, requestUrl);
    },

    /** The latest deployment into the environment of the fingerprint `prefix` starts, or 404. */
    async latestOf(org: Org, environmentName: string, prefix: string): Promise<DeploymentAnswer> {
      const environment = await environmentOr404(store, org, environmentName);
      const deployment = await store.deployments.latestOf(environment.id, prefix.toLowerCase());
      if (deployment === undefined) throw deploymentNotFound(prefix, environment.name);
      return deploymentView(publicUrl(), org.name, deployment);
    },

    /** The environment's deployments in a window (the last 30 days unless given), by day or week. */
    async frequencyOf(
      org: Org,
      environmentName: string,
      query: { from_timestamp?: number; to_timestamp?: number; interval?: FrequencyInterval },
    ): Promise<DeploymentFrequency> {
      const environment = await environmentOr404(store, org, environmentName);
      const to = query.to_timestamp ?? nowSeconds();
      const from = query.from_timestamp ?? to - DEFAULT_WINDOW;
      const interval = query.interval ?? 'day';
      if (from >= to) throw invalid({ 'query.to_timestamp': withInput('Must be after from_timestamp', to) });
      if (bucketCount(from, to, interval) > MAX_BUCKETS)
        throw invalid({
          'query.from_timestamp': withInput(
            `The window holds more than ${MAX_BUCKETS} ${interval}s (${INTERVAL_SECONDS[interval]} seconds each): narrow it or ask by week`,
            from,
          ),
        });
      const times = await store.deployments.timesIn(environment.id, from, to);
      return deploymentFrequencyView(
        environment.name,
        { from, to, interval },
        deploymentBuckets(times, from, to, interval),
      );
    },

    /** How many times the repo's artifacts started to run, in all and in each environment. */
    async repoStatisticsOf(org: Org, repoName: string, query: DeploymentQuery): Promise<RepoDeploymentStatistics> {
      await knownRepo(org, repoName);
      const filter = filterOf(query);
      return repoDeploymentStatisticsView(
        repoName,
        { from: filter.fromTimestamp, to: filter.toTimestamp },
        await store.deployments.byEnvironment(org.id, repoName, filter),
      );
    },

    /** The repo's artifacts running now in the org's physical environments, by name, as their latest snapshots say. */
    async liveArtifactsOf(org: Org, repoName: string): Promise<LiveArtifact[]> {
      await knownRepo(org, repoName);
      const host = publicUrl();
      const { environments } = await store.environments.page(org.id, { descending: false }, -1, 0);
      const live: LiveArtifact[] = [];
      for (const environment of environments) {
        if (isUnreadable(environment) || environment.type === 'logical') continue;
        const latest = await latestSnapshotOf(store, environment.id);
        if (latest === undefined) continue;
        const running = latest.states.flatMap((state, position) => (state.instances > 0 ? [position] : []));
        for (const artifact of latest.artifactsAt(running)) {
          if (!artifact.flows.some((flow) => flow.repo_name === repoName)) continue;
          const started =
            artifact.fingerprint === ''
              ? undefined
              : await store.deployments.latestOf(environment.id, artifact.fingerprint);
          const where = {
            environmentName: environment.name,
            environmentType: environment.type,
            snapshotIndex: latest.index,
          };
          live.push(liveArtifactView(host, org.name, where, artifact, repoName, started?.deployedAt ?? null));
        }
      }
      return live;
    },
  };
}
