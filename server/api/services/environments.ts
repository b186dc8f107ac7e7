// Environments (reference §2.5) and their allowlists (§2.17): every change in one transaction,
// with the snapshot it calls for (a logical environment that gains a member, policies attached or
// detached, an allowed artifact that runs) and the webhooks that snapshot triggers, woken once the
// transaction has committed.
import { badRequest, invalid, withInput } from '../errors.ts';
import { nowSeconds } from '../clock.ts';
import { deliverSoon } from '../delivery/notifications.ts';
import type { AllowlistEntry, Environment, EnvironmentPage, EnvironmentQuery } from '../store/environments.ts';
import type { Org } from '../store/orgs.ts';
import type { OutboxDelivery } from '../store/outbox.ts';
import type { ServiceDeps } from './index.ts';
import { environmentNotFound } from '../notFound.ts';
import { environmentOr404, namedPoliciesOr404 } from './lookups.ts';
import { allowArtifact, changePolicies, recordCombinedSnapshot } from './snapshotting.ts';

/** An environment as PUT /environments/{org} sends it. */
export interface EnvironmentFields {
  name: string;
  type: string;
  description: string;
  require_provenance?: boolean;
  included_environments?: string[];
  policies?: string[];
}

export function environmentService(deps: Pick<ServiceDeps, 'store' | 'publicUrl' | 'deliverer'>) {
  const { store } = deps;

  /**
   * Physical environments by name for a logical one: each must exist and must not be logical. A
   * physical environment's request may name them too (reference §8.3 item 15): they are looked up
   * the same, and the environment, which runs what is reported to it, includes none of them.
   */
  const includedIds = async (org: Org, names: readonly string[]): Promise<number[]> => {
    const ids: number[] = [];
    for (const name of names) {
      const included = await store.environments.byName(org.id, name);
      if (included === undefined) throw environmentNotFound(org.name, name);
      if (included.type === 'logical') {
        throw invalid({
          included_environments: withInput('A logical environment can only include physical environments', name),
        });
      }
      ids.push(included.id);
    }
    return ids;
  };

  const policyIds = async (org: Org, names: readonly string[]): Promise<number[]> => {
    const found = await store.policies.currentByNames(org.id, names);
    return namedPoliciesOr404(org, names, found).map((policy) => policy.id);
  };

  /** Runs `change` in one transaction, then wakes the deliverer for the webhooks it stored. */
  const delivering = async (change: () => Promise<OutboxDelivery[]>): Promise<void> => {
    deliverSoon(deps, await store.transaction(change));
  };

  return {
    /** Creates the environment, or updates the one of that name; true when it was created. */
    async createOrUpdate(org: Org, fields: EnvironmentFields, user: string): Promise<boolean> {
      const included = fields.included_environments;
      const policies = fields.policies;
      const { created, deliveries } = await store.transaction(async () => {
        const now = nowSeconds();
        const includeIds = included === undefined ? undefined : await includedIds(org, included);
        const attachIds = policies === undefined ? undefined : await policyIds(org, policies);
        let environment = await store.environments.byName(org.id, fields.name);
        const isNew = environment === undefined;
        if (environment === undefined) {
          const id = await store.environments.create(
            {
              orgId: org.id,
              name: fields.name,
              type: fields.type,
              description: fields.description,
              requireProvenance: fields.require_provenance === true,
              createdBy: user,
            },
            now,
          );
          environment = (await store.environments.byId(id))!;
        } else {
          if (environment.type !== fields.type)
            throw badRequest(
              `Environment '${fields.name}' is of type ${environment.type}; its type cannot change to ${fields.type}`,
            );
          // An empty description does not overwrite the stored one (reference §2.5).
          const description = fields.description === '' ? undefined : fields.description;
          const requireProvenance =
            typeof fields.require_provenance === 'boolean' ? fields.require_provenance : undefined;
          await store.environments.update(environment.id, { description, requireProvenance }, now);
        }
        if (includeIds !== undefined && environment.type === 'logical')
          await store.environments.setIncluded(environment.id, includeIds, now);
        const deliveries =
          attachIds === undefined ? [] : await changePolicies(deps, org, environment, attachIds, 'replace', user, now);
        return { created: isNew, deliveries };
      });
      deliverSoon(deps, deliveries);
      return created;
    },

    /** One page (`limit` -1: all) of the org's live environments a query selects, then the unreadable ones. */
    async pageOf(org: Org, query: EnvironmentQuery, limit: number, offset: number): Promise<EnvironmentPage> {
      return await store.environments.page(org.id, query, limit, offset);
    },

    async named(org: Org, name: string): Promise<Environment> {
      return await environmentOr404(store, org, name);
    },

    /** Changes the description, the included environments (of a logical one) and the attached policies. */
    async update(
      org: Org,
      name: string,
      changes: { description?: string; included_environments?: string[]; policies?: string[] },
      user: string,
    ): Promise<void> {
      await delivering(async () => {
        const now = nowSeconds();
        const environment = await environmentOr404(store, org, name);
        if (changes.included_environments !== undefined) {
          const includeIds = await includedIds(org, changes.included_environments);
          if (environment.type === 'logical') await store.environments.setIncluded(environment.id, includeIds, now);
        }
        await store.environments.update(environment.id, { description: changes.description }, now);
        if (changes.policies === undefined) return [];
        return await changePolicies(
          deps,
          org,
          environment,
          await policyIds(org, changes.policies),
          'replace',
          user,
          now,
        );
      });
    },

    async archive(org: Org, name: string): Promise<void> {
      await store.transaction(
        async () => await store.environments.archive((await environmentOr404(store, org, name)).id, nowSeconds()),
      );
    },

    /** Renames the environment, and the actions that watch it with it; a name taken is refused. */
    async rename(org: Org, name: string, newName: string): Promise<void> {
      await store.transaction(async () => {
        const environment = await environmentOr404(store, org, name);
        if (newName === environment.name) return;
        if ((await store.environments.byName(org.id, newName)) !== undefined) {
          throw badRequest(`Environment named '${newName}' already exists for organization '${org.name}'`);
        }
        const now = nowSeconds();
        await store.environments.rename(environment.id, newName, now);
        await store.actions.renameWatched(org.id, 'environment', environment.name, newName, now);
      });
    },

    /** Adds a physical environment to a logical one, whose snapshot then takes in what runs there. */
    async join(org: Org, logicalName: string, physicalName: string): Promise<void> {
      await delivering(async () => {
        const logical = await environmentOr404(store, org, logicalName);
        if (logical.type !== 'logical')
          throw badRequest(
            `Environment '${logical.name}' is not logical: only a logical environment can include others`,
          );
        const [physicalId] = await includedIds(org, [physicalName]);
        const current: number[] = [];
        for (const name of logical.included) current.push((await store.environments.byName(org.id, name))!.id);
        if (current.includes(physicalId)) return [];
        const now = nowSeconds();
        await store.environments.setIncluded(logical.id, [...current, physicalId], now);
        // What the joined environment runs now belongs to the logical one's snapshot from now on.
        return await recordCombinedSnapshot(deps, org, (await store.environments.byId(logical.id))!, now);
      });
    },

    /** Attaches or detaches policies by name (reference §4.4: a changed set judges the latest snapshot again). */
    async changePolicies(
      org: Org,
      name: string,
      policyNames: readonly string[],
      mode: 'attach' | 'detach',
      user: string,
    ): Promise<void> {
      await delivering(async () => {
        const environment = await environmentOr404(store, org, name);
        return await changePolicies(
          deps,
          org,
          environment,
          await policyIds(org, policyNames),
          mode,
          user,
          nowSeconds(),
        );
      });
    },

    /** Allows an artifact in the environment (reference §2.17). */
    async allow(
      org: Org,
      name: string,
      entry: { artifactFingerprint: string; artifactName: string; description: string; createdBy: string },
    ): Promise<void> {
      await delivering(async () => {
        const environment = await environmentOr404(store, org, name);
        return await allowArtifact(deps, org, environment, entry, nowSeconds());
      });
    },

    /** The artifacts allowed in the org's live environments, by environment then time. */
    async allowlistOf(org: Org): Promise<AllowlistEntry[]> {
      return await store.environments.allowlist(org.id);
    },
  };
}
