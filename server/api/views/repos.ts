// A repository as the API answers it (reference §2.14): the repo_info clients sent, with its tags.
import type { Repo, RepoFilterOptions } from '../../../shared/contract/types.ts';
import type { RepoInfo } from '../store/repos.ts';
import { tagOptionsOf } from './tagOptions.ts';

export function repoView(info: RepoInfo, tags: Record<string, string>): Repo {
  return {
    id: typeof info.id === 'string' ? info.id : null,
    name: String(info.name),
    url: typeof info.url === 'string' ? info.url : null,
    provider: typeof info.provider === 'string' ? info.provider : null,
    description: typeof info.description === 'string' ? info.description : null,
    namespace_path: Array.isArray(info.namespace_path) ? info.namespace_path.map(String) : [],
    additional_info:
      info.additional_info !== null && typeof info.additional_info === 'object' && !Array.isArray(info.additional_info)
        ? (info.additional_info as Record<string, unknown>)
        : {},
    tags,
  };
}

/** What the repo list can be filtered by (reference §8.4): the names, providers and tags in use, each sorted. */
export function repoFilterOptionsView(
  repos: readonly RepoInfo[],
  tagSets: Iterable<Record<string, string>>,
): RepoFilterOptions {
  const distinct = (values: unknown[]) =>
    [...new Set(values.filter((value): value is string => typeof value === 'string'))].sort();
  return {
    names: distinct(repos.map((repo) => repo.name)),
    providers: distinct(repos.map((repo) => repo.provider)),
    tags: tagOptionsOf(tagSets),
  };
}
