// A repository as the API answers it (reference §2.14): the repo_info clients sent, with its tags.
import type { Repo } from '../../../shared/contract/types.ts';
import type { RepoInfo } from '../store/repos.ts';

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
