// Controls and their decisions (beta; reference §2.11, spec endpoints 7 and 8): each control is
// answered with the live policies that name it, read at the time it is rendered.
import type {
  Control as ControlView,
  ControlCoverage,
  ControlDecision,
  ControlVersion,
  ListedControlDecision,
  TagOptions,
} from '../../../shared/contract/types.ts';
import { conflict } from '../errors.ts';
import { controlNotFound, controlVersionNotFound } from '../notFound.ts';
import { nowSeconds } from '../clock.ts';
import { coverageCounts } from '../rules/controlCoverage.ts';
import { isUnreadable } from '../store/db.ts';
import {
  controlCoverageView,
  controlDecisionView,
  controlVersionView,
  controlView,
  listedDecisionView,
} from '../views/controls.ts';
import { pageLinks, paginationOf, type Pagination } from '../views/paging.ts';
import { renderEach, type Placeholder } from '../views/placeholders.ts';
import { tagOptionsOf } from '../views/tagOptions.ts';
import type { Control, ControlChanges, ControlQuery } from '../store/controls.ts';
import type { Org } from '../store/orgs.ts';
import type { ServiceDeps } from './index.ts';
import { latestSnapshotOf } from './snapshotDocuments.ts';
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

    /** The control as changed by `user`, whose change is its next version. */
    async update(org: Org, identifier: string, changes: ControlChanges, user: string): Promise<ControlView> {
      const control = await store.transaction(async () => {
        const existing = await controlOr404(store, org, identifier);
        await store.controls.update(existing.id, changes, user, nowSeconds());
        return (await store.controls.byIdentifier(org.id, existing.identifier))!;
      });
      return await rendered(org, control);
    },

    /** The control archived or unarchived. */
    async setArchived(org: Org, identifier: string, archived: boolean): Promise<ControlView> {
      const control = await store.transaction(async () => {
        const existing = await controlOr404(store, org, identifier);
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

    /** The versions of the control kept, oldest first (reference §8.4). */
    async versionsOf(org: Org, identifier: string): Promise<ControlVersion[]> {
      const control = await controlOr404(store, org, identifier);
      return (await store.controls.versions(control.id)).map((version) =>
        controlVersionView(control.identifier, version),
      );
    },

    async versionOf(org: Org, identifier: string, number: number): Promise<ControlVersion> {
      const control = await controlOr404(store, org, identifier);
      const version = await store.controls.version(control.id, number);
      if (version === undefined) throw controlVersionNotFound(control.identifier, number);
      return controlVersionView(control.identifier, version);
    },

    /** A page of the decisions on the control, newest first, each with its id (reference §8.4). */
    async decisionsOf(
      org: Org,
      identifier: string,
      page: { page: number; perPage: number; offset: number },
      requestUrl: string,
    ): Promise<{ data: ListedControlDecision[]; pagination: Pagination; _links: Record<string, { href: string }> }> {
      const control = await controlOr404(store, org, identifier);
      const listed = await store.controls.decisionPage(org.id, control.identifier, page.perPage, page.offset);
      const decisions = await store.attestations.byIds(org.id, listed.attestationIds);
      const artifacts = await store.artifacts.inTrails([...new Set(decisions.map((decision) => decision.trailId))]);
      const host = publicUrl();
      const data = decisions.map((decision) => {
        const inTrail = artifacts.get(decision.trailId);
        const artifact = Array.isArray(inTrail)
          ? inTrail.find((candidate) => candidate.fingerprint === decision.artifactFingerprint)
          : undefined;
        return listedDecisionView(
          controlDecisionView(host, org.name, control, decision, artifact?.filename ?? ''),
          decision.id,
        );
      });
      const pagination = paginationOf(listed.total, page.page, page.perPage);
      return { data, pagination, _links: pageLinks(host, requestUrl, pagination) };
    },

    /**
     * Where the control is asked for: the live policies naming it, the environments they are
     * attached to, and how the artifacts running there (by each one's latest snapshot) stand.
     */
    async coverageOf(org: Org, identifier: string): Promise<ControlCoverage> {
      const control = await controlOr404(store, org, identifier);
      const policies = await store.policies.referencingControl(org.id, control.identifier);
      const { environments } = await store.environments.page(org.id, { descending: false }, -1, 0);
      const covered = [];
      for (const environment of environments) {
        if (isUnreadable(environment)) continue;
        const asking = environment.policies.filter((name) => policies.includes(name));
        if (asking.length === 0) continue;
        const latest = await latestSnapshotOf(store, environment.id);
        const running = latest?.states.flatMap((state, position) => (state.instances > 0 ? [position] : [])) ?? [];
        covered.push({
          name: environment.name,
          policies: asking,
          snapshotIndex: latest?.index ?? null,
          counts: coverageCounts(control.identifier, latest?.artifactsAt(running) ?? []),
        });
      }
      return controlCoverageView(control.identifier, policies, covered);
    },
  };
}
