// An org at a glance, for its home page: every live environment with what its compliance is read
// from (its latest snapshot's state, its policies, how many snapshots), and the trails that are
// non-compliant now, the most recently changed first. Two reads, whatever the size of the org: the
// environment list in one statement, and an index range of the trails' stored states (migration 305).
import { isUnreadable } from '../store/db.ts';
import type { Environment } from '../store/environments.ts';
import type { Org } from '../store/orgs.ts';
import type { TrailHeadline } from '../store/trails.ts';
import type { ServiceDeps } from './index.ts';

export interface OrgOverview {
  /** By name; an environment whose row cannot be read is left out. */
  environments: Environment[];
  /** At most the number asked for. */
  nonCompliantTrails: TrailHeadline[];
}

export function overviewService({ store }: Pick<ServiceDeps, 'store'>) {
  return {
    async of(org: Org, trails: number): Promise<OrgOverview> {
      const [environments, nonCompliantTrails] = await Promise.all([
        store.environments.page(org.id, { sort: 'name', descending: false }, -1, 0),
        store.trails.headlines(org.id, { state: 'NON-COMPLIANT' }, trails),
      ]);
      return {
        environments: environments.environments.filter(
          (environment): environment is Environment => !isUnreadable(environment),
        ),
        nonCompliantTrails,
      };
    },
  };
}
