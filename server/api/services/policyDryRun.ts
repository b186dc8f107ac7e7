// Policy dry-run (project extension): the artifacts running in an environment's latest snapshot,
// judged under an edited policy text alone by an evaluation worker (rules/policyDryRun.ts), within
// its budget. Reads only; nothing is stored.
import type { Evaluations } from '../evaluation/pool.ts';
import type { DryRunArtifact } from '../rules/policyDryRun.ts';
import type { Environment } from '../store/environments.ts';
import type { Store } from '../store/index.ts';
import type { Org } from '../store/orgs.ts';
import { latestSnapshotOf } from './snapshotDocuments.ts';

export interface PolicyDryRun {
  environment: string;
  snapshot_index: number | null;
  compliant: number;
  non_compliant: number;
  artifacts: DryRunArtifact[];
}

/**
 * What `policyText` would say about what runs now in `environment`; a policy with errors answers
 * 400 (413 over a size limit) with them, keyed under `policy`; an evaluation over its budget 422.
 */
export async function policyDryRunOf(
  store: Store,
  evaluations: Evaluations,
  org: Org,
  environment: Environment,
  policyText: string,
  now: number,
  listLimit: number,
): Promise<PolicyDryRun> {
  const latest = await latestSnapshotOf(store, environment.id);
  const running =
    latest?.artifactsAt(latest.states.flatMap((state, position) => (state.instances > 0 ? [position] : []))) ?? [];
  const allowed = latest === undefined ? new Set<string>() : await store.environments.allowedIn(environment.id);
  const origins = await store.provenance.originsOf(
    org.id,
    running.map((artifact) => artifact.fingerprint).filter((fingerprint) => fingerprint !== ''),
  );
  const judged = await evaluations.ask('The policy dry-run', 'dry-run', {
    text: policyText,
    running: running.map(({ name, fingerprint, compliant }) => ({ name, fingerprint, compliant })),
    origins,
    allowed: new Set(allowed),
    now,
    listLimit,
  });
  return { environment: environment.name, snapshot_index: latest?.index ?? null, ...judged };
}
