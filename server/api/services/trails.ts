// Trails (reference §2.2, spec endpoint 4): begun (or updated) with an optional template of their
// own, read one by one, and listed per flow and per org with exact page arithmetic, as JSON made
// of each trail's cached rendering.
import type { BodyOf } from '../../../shared/schemas/index.ts';
import { nowSeconds } from '../clock.ts';
import { deliverSoon, trailStartedDeliveries } from '../delivery/notifications.ts';
import { ApiError } from '../errors.ts';
import { newId } from '../ids.ts';
import { templateErrorText } from '../rules/templateErrors.ts';
import type { Flow, StoredTemplate } from '../store/flows.ts';
import type { Org } from '../store/orgs.ts';
import type { Trail, TrailEvent } from '../store/trails.ts';
import { paginationOf } from '../views/paging.ts';
import { placeholderOf } from '../views/placeholders.ts';
import { jsonArray, pageJson } from '../views/trailView.ts';
import { templateVerdictOf } from './documents.ts';
import type { ServiceDeps } from './index.ts';
import { flowOr404, trailOr404 } from './lookups.ts';
import { attestationSummariesOf } from './trailReasons.ts';
import { trailJsonCache, type ListedTrail } from './trailRendering.ts';

/** Fields of data_json stored with the trail as they were sent. */
const BODY_FIELDS = ['user_data', 'git_commit_info', 'repo_info', 'external_urls', 'origin_url'] as const;

/** How many rendered pages of trails a server keeps. */
const CACHED_PAGES = 256;

/** Which page of a list: `limit` items from `offset`, or the whole list when paging was not asked for. */
export interface PageRequest {
  requested: boolean;
  page: number;
  perPage: number;
  offset: number;
}

export interface OrgTrailFilter {
  /** A flow's name. */
  flow?: string;
  fingerprint?: string;
  flow_tag?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What a trail keeps of its data_json: the fields sent, and the repo's id when repo_info has one. */
function storedBodyOf(input: BodyOf<'trail-create'>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of BODY_FIELDS) if (input[key] !== undefined) body[key] = input[key];
  if (isObject(input.repo_info) && typeof input.repo_info.id === 'string') body.repo_ids = [input.repo_info.id];
  return body;
}

/**
 * What a trail_reported or trail_updated event keeps of its report: the commit and repository it
 * carried, and the trail's data as reported (`trail_data_json`) with the template it uses.
 */
function reportedTrailEvent(
  type: 'trail_reported' | 'trail_updated',
  input: BodyOf<'trail-create'>,
  templateId: string,
  now: number,
): TrailEvent {
  return {
    type,
    timestamp: now,
    git_commit_info: input.git_commit_info ?? null,
    repo_info: input.repo_info ?? null,
    trail_data_json: {
      name: input.name,
      description: input.description ?? '',
      ...storedBodyOf(input),
      template_id: templateId,
    },
  };
}

export function trailService(deps: Pick<ServiceDeps, 'store' | 'evaluations' | 'publicUrl' | 'deliverer'>) {
  const { store, evaluations } = deps;
  const renderedTrails = trailJsonCache(deps);
  /** Trails of a list as JSON, each the spec's marked placeholder when it cannot be rendered. */
  const trailJsons = async (orgName: string, listed: readonly ListedTrail[]): Promise<Buffer[]> =>
    (await renderedTrails(orgName, listed)).map((item, index) =>
      item instanceof Error ? Buffer.from(JSON.stringify(placeholderOf(listed[index].trail.id, item.message))) : item,
    );
  /** A listed trail's flow, or why it cannot be read (its trails then show as placeholders). */
  const readableFlow = async (id: string): Promise<Flow | Error> => {
    try {
      return (await store.flows.byId(id))!;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
  // Pages of a flow's trails as sent, valid while the flow's version stays (migration 003).
  const pages = new Map<string, { version: number; body: Buffer }>();

  return {
    /** The live flow a trail is begun in; 404 otherwise (before its body is read). */
    async flowToBegin(org: Org, flowName: string): Promise<Flow> {
      return await flowOr404(store, org, flowName);
    },

    /**
     * Begins the trail (with `templateText` as its own template, else the flow's) and stores the
     * webhook deliveries that calls for, or updates the trail of that name; answers whether it was begun.
     */
    async begin(
      org: Org,
      flow: Flow,
      input: BodyOf<'trail-create'>,
      templateText: string | undefined,
      createdBy: string,
    ): Promise<boolean> {
      const description = input.description ?? undefined;
      const body = storedBodyOf(input);
      let ownTemplate: StoredTemplate | undefined;
      if (templateText !== undefined) {
        const verdict = await templateVerdictOf(evaluations, templateText);
        if (verdict.errors !== undefined)
          throw new ApiError(verdict.status, templateErrorText(verdict.errors, verdict.unions));
        ownTemplate = verdict.template;
      }
      const { created, deliveries } = await store.transaction(async () => {
        const now = nowSeconds();
        const existing = await store.trails.byName(flow.id, input.name);
        if (existing !== undefined) {
          await store.trails.update(existing.id, { description, body: { ...existing.body, ...body } }, now);
          await store.trails.appendEvent(
            existing.id,
            reportedTrailEvent('trail_updated', input, existing.template.id, now),
          );
          return { created: false, deliveries: [] };
        }
        const trail: Omit<Trail, 'version'> = {
          id: newId(),
          orgId: org.id,
          flowId: flow.id,
          name: input.name,
          description: description ?? '',
          template: ownTemplate ?? (await flowOr404(store, org, flow.name)).template,
          body,
          createdBy,
          createdAt: now,
          lastModifiedAt: now,
        };
        await store.trails.create(trail);
        await store.trails.appendEvent(trail.id, reportedTrailEvent('trail_reported', input, trail.template.id, now));
        return { created: true, deliveries: await trailStartedDeliveries(deps, org, flow.name, input.name) };
      });
      deliverSoon(deps, deliveries);
      return created;
    },

    /** The trail as JSON; 404 for a flow or trail that does not exist. */
    async jsonOf(org: Org, flowName: string, trailName: string): Promise<Buffer> {
      const flow = await flowOr404(store, org, flowName);
      const [json] = await renderedTrails(org.name, [{ flow, trail: await trailOr404(store, org, flow, trailName) }]);
      if (json instanceof Error) throw json;
      return json;
    },

    /** The attestations `ids` of a trail with why each has its verdict in words, for the trail page. */
    async attestationSummaries(org: Org, flowName: string, trailName: string, ids: ReadonlySet<string>) {
      return await attestationSummariesOf(store, org, flowName, trailName, ids);
    },

    /** A page of the flow's trails as JSON (all of them, unpaged, when paging was not asked for). */
    async flowPageJson(org: Org, flowName: string, page: PageRequest): Promise<Buffer> {
      const current = await store.flows.versionOf(org.id, flowName);
      const key = page.requested ? `${current?.id}:${page.page}:${page.perPage}` : `${current?.id}:all`;
      const cached = pages.get(key);
      if (current !== undefined && cached !== undefined && cached.version === current.version) return cached.body;
      const flow = await flowOr404(store, org, flowName);
      const { total, trails } = await store.trails.pageOfFlow(
        flow.id,
        page.requested ? page.perPage : -1,
        page.requested ? page.offset : 0,
      );
      const data = jsonArray(
        await trailJsons(
          org.name,
          trails.map((trail) => ({ flow, trail })),
        ),
      );
      const body = page.requested ? pageJson(data, paginationOf(total, page.page, page.perPage)) : data;
      if (current !== undefined) {
        pages.delete(key);
        pages.set(key, { version: current.version, body });
        if (pages.size > CACHED_PAGES) pages.delete(pages.keys().next().value!);
      }
      return body;
    },

    /** A page of the org's trails that pass the filter, as JSON; a trail whose flow cannot be read is a placeholder. */
    async orgPageJson(org: Org, filter: OrgTrailFilter, page: PageRequest): Promise<Buffer> {
      const flowId = filter.flow === undefined ? undefined : (await flowOr404(store, org, filter.flow)).id;
      const result = await store.trails.pageOfOrg(
        org.id,
        { flowId, flowTag: filter.flow_tag, fingerprint: filter.fingerprint },
        page.requested ? page.perPage : -1,
        page.requested ? page.offset : 0,
      );
      const flows = new Map<string, Flow | Error>();
      for (const trail of result.trails)
        if (!flows.has(trail.flowId)) flows.set(trail.flowId, await readableFlow(trail.flowId));
      const readable = result.trails.flatMap((trail) => {
        const flow = flows.get(trail.flowId)!;
        return flow instanceof Error ? [] : [{ flow, trail }];
      });
      const rendered = new Map(
        (await trailJsons(org.name, readable)).map((json, index) => [readable[index].trail.id, json]),
      );
      const data = jsonArray(
        result.trails.map((trail) => {
          const flow = flows.get(trail.flowId)!;
          return flow instanceof Error
            ? Buffer.from(JSON.stringify(placeholderOf(trail.id, flow.message)))
            : rendered.get(trail.id)!;
        }),
      );
      return page.requested ? pageJson(data, paginationOf(result.total, page.page, page.perPage)) : data;
    },
  };
}
