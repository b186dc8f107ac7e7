// Builds (reference §8.4): an artifact reported into a flow is a build. The org's, a flow's or a
// repo's, newest first, read by position as the artifact lists are; and how many there were in a
// window, per flow and by the compliance of their trails.
import type { Build, BuildStatistics } from '../../../shared/contract/types.ts';
import { invalid, withInput } from '../errors.ts';
import { repoNotFound } from '../notFound.ts';
import { isUnreadable } from '../store/db.ts';
import type { Artifact } from '../store/artifacts.ts';
import type { Org } from '../store/orgs.ts';
import { buildStatisticsView, buildView } from '../views/builds.ts';
import { pageLinks, paginationOf, type Pagination } from '../views/paging.ts';
import { renderEach, type Placeholder } from '../views/placeholders.ts';
import { artifactFactsReader } from './artifactFacts.ts';
import type { PageWanted } from './deployments.ts';
import type { ServiceDeps } from './index.ts';
import { flowOr404 } from './lookups.ts';

export function buildService({ store, publicUrl }: Pick<ServiceDeps, 'store' | 'publicUrl'>) {
  return {
    /** A page of the org's builds (of one flow or repo when named), newest first; a row that cannot be read is a placeholder. */
    async pageOf(
      org: Org,
      filter: { flow_name?: string; repo_name?: string },
      wanted: PageWanted,
      requestUrl: string,
    ): Promise<{ data: Array<Build | Placeholder>; pagination: Pagination; _links: Record<string, { href: string }> }> {
      const flowId = filter.flow_name === undefined ? undefined : (await flowOr404(store, org, filter.flow_name)).id;
      if (filter.repo_name !== undefined && !(await store.artifacts.repoExists(org.id, filter.repo_name)))
        throw repoNotFound(filter.repo_name);
      const selected = { flowId, repoName: filter.repo_name };
      const rows = await store.artifacts.page(org.id, selected, wanted.perPage, wanted.offset);
      const facts = artifactFactsReader(
        store,
        rows.filter((row): row is Artifact => !isUnreadable(row)),
      );
      const host = publicUrl();
      const data = await renderEach(
        rows,
        (artifact) => artifact.id,
        async (artifact) => buildView(host, org.name, artifact, (await facts(artifact)).state),
      );
      const pagination = paginationOf(await store.artifacts.count(org.id, selected), wanted.page, wanted.perPage);
      return { data, pagination, _links: pageLinks(host, requestUrl, pagination) };
    },

    /** The org's builds in a window (unbounded where not given), in all and per flow. */
    async statisticsOf(org: Org, query: { from_timestamp?: number; to_timestamp?: number }): Promise<BuildStatistics> {
      const window = { from: query.from_timestamp, to: query.to_timestamp };
      if (window.from !== undefined && window.to !== undefined && window.from > window.to)
        throw invalid({ 'query.to_timestamp': withInput('Must not be before from_timestamp', window.to) });
      return buildStatisticsView(window, await store.artifacts.tally(org.id, window));
    },
  };
}
