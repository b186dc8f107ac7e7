// Tags of flows, environments, controls and repos (reference §2.13, §8.1): keys set and removed in one
// transaction with the record they belong to.
import { forbidden } from '../errors.ts';
import { repoNotFound } from '../notFound.ts';
import { nowSeconds } from '../clock.ts';
import type { Org } from '../store/orgs.ts';
import type { ServiceDeps } from './index.ts';
import type { RepoInfo } from '../store/repos.ts';
import { controlOr404, environmentOr404, flowOr404, repoNamed } from './lookups.ts';

export type TaggedKind = 'flow' | 'environment' | 'control' | 'repo';

export interface TagChanges {
  set: Record<string, string>;
  remove: readonly string[];
}

function retagged(tags: Record<string, string>, changes: TagChanges): Record<string, string> {
  const next = { ...tags };
  for (const [key, value] of Object.entries(changes.set)) next[key] = value;
  for (const key of changes.remove) delete next[key];
  return next;
}

/**
 * The id of the repo a tag request addresses: by its id (reference §2.13), or by its name, slashes
 * and all, as clients address it (§8.1); 404 for neither, and for a repo sent without an id, whose
 * tags have nothing to be kept under.
 */
function repoIdOf(repos: readonly RepoInfo[], idOrName: string): string {
  if (repos.some((repo) => repo.id === idOrName)) return idOrName;
  const named = repoNamed(repos, idOrName, {});
  if (typeof named.id !== 'string') throw repoNotFound(idOrName);
  return named.id;
}

export function tagService({ store }: Pick<ServiceDeps, 'store'>) {
  return {
    /** Sets and removes tags of the record of `kind` named (or, for a repo, identified by) `id`. */
    async retag(org: Org, kind: TaggedKind, id: string, changes: TagChanges): Promise<void> {
      await store.transaction(async () => {
        const now = nowSeconds();
        if (kind === 'environment') {
          const environment = await environmentOr404(store, org, id);
          await store.environments.setTags(environment.id, retagged(environment.tags, changes), now);
        } else if (kind === 'control') {
          if (!org.features.controls) throw forbidden();
          const control = await controlOr404(store, org, id);
          await store.controls.setTags(control.id, retagged(control.tags, changes), now);
        } else if (kind === 'flow') {
          const flow = await flowOr404(store, org, id);
          await store.flows.setTags(flow.id, retagged(flow.tags, changes), now);
        } else {
          const repoId = repoIdOf(await store.repos.all(org.id), id);
          await store.repos.setTags(org.id, repoId, retagged(await store.repos.tags(org.id, repoId), changes), now);
        }
      });
    },
  };
}
