// Controls and their decisions (beta; reference §2.11, spec endpoints 7 and 8): each control is
// answered with the live policies that name it, read at the time it is rendered.
import type { Control as ControlView, ControlDecision, TagOptions } from '../../../shared/contract/types.ts';
import { conflict } from '../errors.ts';
import { controlNotFound } from '../notFound.ts';
import { nowSeconds } from '../clock.ts';
import { controlDecisionView, controlView } from '../views/controls.ts';
import { renderEach, type Placeholder } from '../views/placeholders.ts';
import { tagOptionsOf } from '../views/tagOptions.ts';
import type { Control, ControlChanges, ControlQuery } from '../store/controls.ts';
import type { Org } from '../store/orgs.ts';
import type { ServiceDeps } from './index.ts';
import { controlOr404 } from './lookups.ts';

export function controlService({ store, publicUrl }: Pick<ServiceDeps, 'store' | 'publicUrl'>) {
  const rendered = async (org: Org, control: Control): Promise<ControlView> =>
    controlView(control, await store.policies.referencingControl(org.id, control.identifier));

  return {
    /** The new control, rendered; an identifier taken (archived controls too) is a conflict. */
    async create(
      org: Org,
      fields: { identifier: string; name: string; description?: string; links?: Record<string, string> },
      user: string,
    ): Promise<ControlView> {
      const control = await store.transaction(async () => {
        if ((await store.controls.byIdentifier(org.id, fields.identifier)) !== undefined) {
          throw conflict(
            `A control with identifier '${fields.identifier}' already exists in organization '${org.name}'`,
          );
        }
        await store.controls.create(
          org.id,
          {
            identifier: fields.identifier,
            name: fields.name,
            description: fields.description ?? '',
            links: fields.links ?? {},
            createdBy: user,
          },
          nowSeconds(),
        );
        return (await store.controls.byIdentifier(org.id, fields.identifier))!;
      });
      return await rendered(org, control);
    },

    /**
     * One page of the org's controls, rendered; a control that cannot be read or rendered stays
     * in the list as a placeholder (the store puts the unreadable rows last).
     */
    async pageOf(
      org: Org,
      query: ControlQuery,
      limit: number,
      offset: number,
    ): Promise<{ total: number; controls: Array<ControlView | Placeholder> }> {
      const selected = await store.controls.page(org.id, query, limit, offset);
      return {
        total: selected.total,
        controls: await renderEach(
          selected.controls,
          (control) => control.identifier,
          (control) => rendered(org, control),
        ),
      };
    },

    /** The tags on the org's live controls, each key with its values. */
    async tagOptions(org: Org): Promise<TagOptions> {
      return tagOptionsOf(await store.controls.tagSets(org.id));
    },

    async named(org: Org, identifier: string): Promise<ControlView> {
      return await rendered(org, await controlOr404(store, org, identifier));
    },

    /** The control as changed. */
    async update(org: Org, identifier: string, changes: ControlChanges): Promise<ControlView> {
      const control = await store.transaction(async () => {
        const existing = await controlOr404(store, org, identifier);
        await store.controls.update(existing.id, changes, nowSeconds());
        return (await store.controls.byIdentifier(org.id, existing.identifier))!;
      });
      return await rendered(org, control);
    },

    /** The control archived or unarchived. */
    async setArchived(org: Org, identifier: string, archived: boolean): Promise<ControlView> {
      const control = await store.transaction(async () => {
        // Archiving an unknown control has the spec's short message (endpoint 8); unarchiving the long one.
        const existing = archived
          ? await controlOr404(store, org, identifier, 'short')
          : await controlOr404(store, org, identifier);
        await store.controls.setArchived(existing.id, archived, nowSeconds());
        return (await store.controls.byIdentifier(org.id, existing.identifier))!;
      });
      return await rendered(org, control);
    },

    /** A decision on the control: a `system:decision` attestation naming it, or 404. */
    async decisionOf(org: Org, identifier: string, decisionId: string): Promise<ControlDecision> {
      const control = await store.controls.byIdentifier(org.id, identifier);
      const decision = await store.attestations.byId(org.id, decisionId);
      if (
        control === undefined ||
        decision === undefined ||
        decision.type !== 'system:decision' ||
        decision.body.control !== control.identifier
      ) {
        throw controlNotFound(org.name, identifier, 'control or decision');
      }
      const fingerprint = decision.artifactFingerprint ?? '';
      const artifact =
        fingerprint === ''
          ? undefined
          : (await store.artifacts.inTrail(decision.trailId)).find(
              (candidate) => candidate.fingerprint === fingerprint,
            );
      return controlDecisionView(publicUrl(), org.name, control, decision, artifact?.filename ?? '');
    },
  };
}
