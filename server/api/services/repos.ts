// Repositories (reference §2.14): not created on their own, they are the repo_info objects sent with
// trails, attestations and artifacts; listed and found by name, each with the tags set on it.
import type { RepoFilterOptions, TagOptions } from '../../../shared/contract/types.ts';
import type { Org } from '../store/orgs.ts';
import type { RepoInfo } from '../store/repos.ts';
import { repoFilterOptionsView } from '../views/repos.ts';
import { tagOptionsOf } from '../views/tagOptions.ts';
import type { ServiceDeps } from './index.ts';
import { repoNamed, type RepoNarrowing } from './lookups.ts';

export interface RepoFilter {
  name?: string;
  /** A part of the name, in any case. */
  search?: string;
  provider?: string;
  repo_id?: string;
  sort_direction?: 'asc' | 'desc';
}

export interface TaggedRepo {
  info: RepoInfo;
  tags: Record<string, string>;
}

export function repoService({ store }: Pick<ServiceDeps, 'store'>) {
  const tagged = async (org: Org, info: RepoInfo): Promise<TaggedRepo> => ({
    info,
    tags: typeof info.id === 'string' ? await store.repos.tags(org.id, info.id) : {},
  });

  return {
    /** The org's repos that pass `filter`, sorted by name, and one page of them with their tags. */
    async pageOf(
      org: Org,
      filter: RepoFilter,
      offset: number,
      limit: number,
    ): Promise<{ total: number; repos: TaggedRepo[] }> {
      const search = filter.search?.toLowerCase();
      const matching = (await store.repos.all(org.id))
        .filter((repo) => filter.name === undefined || repo.name === filter.name)
        .filter((repo) => search === undefined || String(repo.name).toLowerCase().includes(search))
        .filter((repo) => filter.provider === undefined || repo.provider === filter.provider)
        .filter((repo) => filter.repo_id === undefined || repo.id === filter.repo_id)
        .sort((a, b) => (filter.sort_direction === 'desc' ? -1 : 1) * String(a.name).localeCompare(String(b.name)));
      // One repo's tags after another: a transaction's reads share one connection on PostgreSQL.
      const repos: TaggedRepo[] = [];
      for (const repo of matching.slice(offset, offset + limit)) repos.push(await tagged(org, repo));
      return { total: matching.length, repos };
    },

    /** The tags on the org's repos, each key with its values. */
    async tagOptions(org: Org): Promise<TagOptions> {
      return tagOptionsOf(await store.repos.tagSets(org.id));
    },

    /** What the repo list filters by: the names, providers and tags in use. */
    async filterOptions(org: Org): Promise<RepoFilterOptions> {
      return repoFilterOptionsView(await store.repos.all(org.id), await store.repos.tagSets(org.id));
    },

    /** The one repo of that name (narrowed by provider or id), or 404; 400 when the name alone is ambiguous. */
    async named(org: Org, name: string, narrowing: RepoNarrowing): Promise<TaggedRepo> {
      return await tagged(org, repoNamed(await store.repos.all(org.id), name, narrowing));
    },
  };
}
