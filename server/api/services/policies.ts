// Environment policies (reference §2.9, spec endpoint 11): a policy's text is read and checked by
// an evaluation worker, stored as a new version only when it changed, and archiving or unarchiving
// one judges again at once the environments that use it.
import { normalizePolicy } from '../../../shared/policies/model.ts';
import { nowSeconds } from '../clock.ts';
import { deliverSoon } from '../delivery/notifications.ts';
import { conflict } from '../errors.ts';
import type { Unreadable } from '../store/db.ts';
import type { Org } from '../store/orgs.ts';
import type { OutboxDelivery } from '../store/outbox.ts';
import type { Policy } from '../store/policies.ts';
import { policyValueOf } from './documents.ts';
import type { ServiceDeps } from './index.ts';
import { policyNotFound } from '../notFound.ts';
import { reevaluateEnvironment } from './snapshotting.ts';

/** Control identifiers the policy's attestation rules name in `for_control`. */
function controlsOf(policy: unknown): string[] {
  const model = normalizePolicy(policy);
  return [
    ...new Set(model.artifacts.attestations.flatMap((rule) => (rule.for_control === null ? [] : [rule.for_control]))),
  ];
}

export function policyService(deps: Pick<ServiceDeps, 'store' | 'publicUrl' | 'deliverer' | 'evaluations'>) {
  const { store } = deps;
  return {
    /**
     * Creates the policy from its text, or adds the text as its next version when it changed
     * (reference §4.3); true when it was created. A text with errors is refused, keyed `policy_file`.
     */
    async createOrVersion(
      org: Org,
      fields: { name: string; description?: string; comment?: string },
      text: string,
      user: string,
    ): Promise<boolean> {
      const policy = await policyValueOf(deps.evaluations, text, 'policy_file', 'upload');
      const content = {
        policyYaml: text,
        comment: fields.comment ?? '',
        createdBy: user,
        controls: controlsOf(policy),
      };
      return await store.transaction(async () => {
        const now = nowSeconds();
        const existing = await store.policies.byName(org.id, fields.name);
        if (existing === undefined) {
          await store.policies.create(org.id, fields.name, fields.description ?? '', 'env', content, now);
          return true;
        }
        if (existing.versions.at(-1)!.policyYaml !== text) await store.policies.addVersion(existing.id, content, now);
        if (fields.description && fields.description !== existing.description)
          await store.policies.setDescription(existing.id, fields.description, now);
        return false;
      });
    },

    /**
     * Archives the live policy of that name, or unarchives the last one archived under it unless a
     * live one has taken the name. An archived policy leaves lists and evaluation and frees its name
     * (reference §1.7); the environments that used it are judged again at once.
     */
    async setArchived(org: Org, name: string, archive: boolean, user: string): Promise<void> {
      const deliveries = await store.transaction(async () => {
        const now = nowSeconds();
        const live = await store.policies.byName(org.id, name);
        let policy: Policy | undefined;
        if (archive) {
          if (live === undefined) throw policyNotFound(org.name, name);
          policy = live;
          await store.policies.archive(live.id, user, now);
        } else {
          if (live !== undefined)
            throw conflict(
              `A policy named '${name}' is live in organization '${org.name}'; archive it before unarchiving another`,
            );
          policy = await store.policies.lastArchived(org.id, name);
          if (policy === undefined) throw policyNotFound(org.name, name);
          await store.policies.unarchive(policy.id, user, now);
        }
        const found: OutboxDelivery[] = [];
        for (const environmentName of policy.consumingEnvs) {
          const environment = await store.environments.byName(org.id, environmentName);
          if (environment !== undefined) found.push(...(await reevaluateEnvironment(deps, org, environment, now)));
        }
        return found;
      });
      deliverSoon(deps, deliveries);
    },

    /** The org's live policies; a row that cannot be read stands as unreadable. */
    async policiesOf(org: Org): Promise<Array<Policy | Unreadable>> {
      return await store.policies.list(org.id);
    },

    async named(org: Org, name: string): Promise<Policy> {
      const policy = await store.policies.byName(org.id, name);
      if (policy === undefined) throw policyNotFound(org.name, name);
      return policy;
    },
  };
}
