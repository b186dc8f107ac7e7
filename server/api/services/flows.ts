// Flows (spec endpoint 3, reference §2.1): created or updated with a template or the legacy list of
// attestation names, listed with paging, sort and filters, read, archived and renamed.
import type { Flow as FlowAnswer } from '../../../shared/contract/types.ts';
import { badRequest } from '../errors.ts';
import { nowSeconds } from '../clock.ts';
import { newId } from '../ids.ts';
import { EMPTY_TEMPLATE, templateOrInvalid } from '../rules/templates.ts';
import { evaluationOf } from '../rules/compliance.ts';
import { isUnreadable } from '../store/db.ts';
import type { Flow, StoredTemplate } from '../store/flows.ts';
import type { Org } from '../store/orgs.ts';
import type { Trail } from '../store/trails.ts';
import { flowView, type FlowLatest } from '../views/flowView.ts';
import { renderEach, type Placeholder } from '../views/placeholders.ts';
import { legacyTemplateOf, templateOrRefusal } from './documents.ts';
import type { ServiceDeps } from './index.ts';
import { flowOr404 } from './lookups.ts';

/** A flow's own fields, as the template form's `data_json` and the legacy JSON form both send them. */
export interface FlowInput {
  name: string;
  description?: string;
  visibility?: 'public' | 'private';
}

export interface FlowListQuery {
  search_by_name?: string;
  case_sensitive?: boolean;
  tag?: string[];
  sort?: 'name' | 'latest_activity';
  sort_direction?: 'asc' | 'desc';
}

export function flowService({
  store,
  evaluations,
  publicUrl,
}: Pick<ServiceDeps, 'store' | 'evaluations' | 'publicUrl'>) {
  /** Creates the flow or updates it; answers whether it was created. */
  const saved = async (
    org: Org,
    input: FlowInput,
    template: StoredTemplate | undefined,
    createdBy: string,
  ): Promise<boolean> =>
    await store.transaction(async () => {
      const now = nowSeconds();
      const existing = await store.flows.byName(org.id, input.name);
      if (existing !== undefined) {
        await store.flows.update(
          existing.id,
          { description: input.description, visibility: input.visibility, template },
          now,
        );
        return false;
      }
      const flow: Flow = {
        id: newId(),
        orgId: org.id,
        name: input.name,
        description: input.description ?? '',
        visibility: input.visibility ?? 'private',
        template: template ?? templateOrInvalid(EMPTY_TEMPLATE),
        tags: {},
        repoUrl: null,
        createdBy,
        createdAt: now,
        lastModifiedAt: now,
        latestActivityAt: null,
        latestState: null,
      };
      await store.flows.create(flow);
      return true;
    });

  /**
   * Each flow's latest activity and state. They are kept on write (migration 203), so a page reads
   * nothing more. A flow whose latest trail has no stored state (a row of it changed behind the
   * server or cannot be read) is evaluated as before: its latest trail, and that trail's
   * attestations and artifacts, read in three statements for all such flows of the page. Asking
   * for a flow fails alone when a row it needs cannot be read.
   */
  const latestReader = async (flows: readonly Flow[]): Promise<(flow: Flow) => Promise<FlowLatest>> => {
    const unknown = flows.filter((flow) => flow.latestActivityAt !== null && flow.latestState === null);
    const latest =
      unknown.length === 0
        ? new Map<string, Trail | Error>()
        : await store.trails.latestActiveOf(unknown.map((flow) => flow.id));
    const trailIds = [...latest.values()].flatMap((trail) => (trail instanceof Error ? [] : [trail.id]));
    const attestations = await store.attestations.inTrails(trailIds);
    const artifacts = await store.artifacts.inTrails(trailIds);
    return async (flow) => {
      if (flow.latestActivityAt === null || flow.latestState !== null)
        return { activityAt: flow.latestActivityAt, state: flow.latestState };
      const trail = latest.get(flow.id);
      if (trail instanceof Error) throw trail;
      if (trail === undefined) return { activityAt: null, state: null };
      const inTrail = attestations.get(trail.id);
      const artifactsInTrail = artifacts.get(trail.id);
      if (inTrail instanceof Error) throw inTrail;
      if (artifactsInTrail instanceof Error) throw artifactsInTrail;
      const { compliance_state } = await evaluationOf(store, trail, inTrail, artifactsInTrail);
      return { activityAt: trail.lastModifiedAt, state: compliance_state };
    };
  };

  return {
    /** Creates or updates the flow with the template text (the empty template when none); answers whether it was created. */
    async savedWithTemplate(
      org: Org,
      input: FlowInput,
      templateText: string | undefined,
      createdBy: string,
    ): Promise<boolean> {
      const template = templateText === undefined ? undefined : await templateOrRefusal(evaluations, templateText);
      return await saved(org, input, template, createdBy);
    },

    /** Creates or updates the flow with the legacy template of these attestation names; answers whether it was created. */
    async savedWithNames(org: Org, input: FlowInput, names: string[] | undefined, createdBy: string): Promise<boolean> {
      const template = names === undefined ? undefined : await legacyTemplateOf(evaluations, names);
      return await saved(org, input, template, createdBy);
    },

    /**
     * The org's flows that pass the query, sorted (latest activity newest first unless told),
     * `limit` of them from `offset` (all with -1), rendered: a flow that cannot be is a placeholder.
     */
    async pageOf(
      org: Org,
      query: FlowListQuery,
      limit: number,
      offset: number,
    ): Promise<{ total: number; flows: Array<FlowAnswer | Placeholder> }> {
      if (query.search_by_name === '') throw badRequest('Empty string is not allowed for flow names.');
      const sort = query.sort ?? 'name';
      const selected = await store.flows.page(
        org.id,
        {
          nameContains: query.search_by_name,
          caseSensitive: query.case_sensitive !== false,
          tags: query.tag,
          sort,
          descending:
            query.sort_direction === 'desc' || (sort === 'latest_activity' && query.sort_direction === undefined),
        },
        limit,
        offset,
      );
      const latestOf = await latestReader(selected.flows.filter((flow): flow is Flow => !isUnreadable(flow)));
      const host = publicUrl();
      return {
        total: selected.total,
        flows: await renderEach(
          selected.flows,
          (flow) => flow.id,
          async (flow) => flowView(host, org.name, flow, await latestOf(flow)),
        ),
      };
    },

    /** The live flow of that name, rendered; 404 otherwise. */
    async named(org: Org, name: string): Promise<FlowAnswer> {
      const flow = await flowOr404(store, org, name);
      return flowView(publicUrl(), org.name, flow, await (await latestReader([flow]))(flow));
    },

    async archive(org: Org, name: string): Promise<void> {
      await store.transaction(
        async () => await store.flows.archive((await flowOr404(store, org, name)).id, nowSeconds()),
      );
    },

    /** Renames the flow, and the actions that watch it by name; 400 when the new name is taken. */
    async rename(org: Org, name: string, newName: string): Promise<void> {
      await store.transaction(async () => {
        const flow = await flowOr404(store, org, name);
        if (flow.name === newName) return;
        if ((await store.flows.byName(org.id, newName)) !== undefined) {
          throw badRequest(`A flow named '${newName}' already exists in organization '${org.name}'`);
        }
        await store.flows.rename(flow.id, newName, nowSeconds());
        await store.actions.renameWatched(org.id, 'flow', flow.name, newName, nowSeconds());
      });
    },
  };
}
