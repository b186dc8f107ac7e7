// The Trail object of the spec's table and reference §3.4.
import type { Store } from '../store/index.ts';
import type { Artifact } from '../store/artifacts.ts';
import type { Attestation } from '../store/attestations.ts';
import type { Flow } from '../store/flows.ts';
import type { Trail, TrailEvent, TrailRef } from '../store/trails.ts';
import { evaluationOf } from '../rules/compliance.ts';
import { htmlUrl } from './urls.ts';

/** The rows a trail's view shows besides its own: its compliance_status is evaluated from them. */
interface TrailRows {
  attestations: readonly Attestation[];
  artifacts: readonly Artifact[];
  events: TrailEvent[];
}

async function viewOf(
  store: Store,
  host: string,
  orgName: string,
  flow: Flow,
  trail: Trail,
  rows: TrailRows,
): Promise<Record<string, unknown>> {
  // The stored compliance_state (migration 203) would not do: the view shows every slot's status.
  const evaluation = await evaluationOf(store, trail, rows.attestations, rows.artifacts);
  const body = trail.body;
  const view: Record<string, unknown> = {
    name: trail.name,
    description: trail.description,
    created_at: trail.createdAt,
    last_modified_at: trail.lastModifiedAt,
    created_by: trail.createdBy,
    compliance_status: evaluation.compliance_status,
    compliance_state: evaluation.compliance_state,
    is_compliant: evaluation.is_compliant,
    template: { ...trail.template.parsed, content: trail.template.content },
    flow: { name: flow.name, tags: flow.tags },
    html_url: htmlUrl.trail(host, orgName, flow.name, trail.name),
    origin_url: body.origin_url ?? null,
    user_data: body.user_data ?? {},
    repo_ids: body.repo_ids ?? [],
    external_urls: body.external_urls ?? {},
    events: rows.events,
  };
  if (body.git_commit_info !== undefined && body.git_commit_info !== null) view.git_commit_info = body.git_commit_info;
  if (body.repo_info !== undefined && body.repo_info !== null) view.repo_info = body.repo_info;
  return view;
}

export async function trailView(
  store: Store,
  host: string,
  orgName: string,
  flow: Flow,
  trail: Trail,
): Promise<Record<string, unknown>> {
  const attestations = await store.attestations.inTrail(trail.id);
  const artifacts = await store.artifacts.inTrail(trail.id);
  return viewOf(store, host, orgName, flow, trail, {
    attestations,
    artifacts,
    events: await store.trails.events(trail.id),
  });
}

/** A JSON array of already-encoded items. */
export function jsonArray(items: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [OPEN];
  items.forEach((item, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(item);
  });
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** How many rendered trails a server keeps (a few KB each). */
const CACHED_TRAILS = 4000;

/** A trail to render, with the flow it shows. */
export interface ListedTrail {
  flow: Flow;
  trail: TrailRef;
}

/** The value, or the error that stands for it. */
function ok<T>(value: T | Error | undefined, what: string): T {
  if (value instanceof Error) throw value;
  if (value === undefined) throw new Error(`${what} not found`);
  return value;
}

/**
 * Renders trails as UTF-8 JSON, each reused while the trail's version (moved by every write to it,
 * see migration 003) and its flow's name and tags stay the same. A trail's view shows each slot's
 * status, which is evaluated from its attestations and artifacts, so a list without this cache
 * would read those rows for every trail it shows; with it, a list is mostly buffer copies. The
 * trails not kept are read together, in four statements for all of them. Each item is its JSON,
 * or the error that kept it from being rendered (its rows could not be read).
 */
export function trailJsonCache(
  store: Store,
  host: () => string,
): (orgName: string, listed: readonly ListedTrail[]) => Promise<Array<Buffer | Error>> {
  const rendered = new Map<string, { version: number; flowKey: string; json: Buffer }>();
  const keep = (id: string, entry: { version: number; flowKey: string; json: Buffer }): void => {
    rendered.delete(id);
    rendered.set(id, entry);
    if (rendered.size > CACHED_TRAILS) rendered.delete(rendered.keys().next().value!);
  };
  return async (orgName, listed) => {
    const flowKeyOf = (flow: Flow): string => `${flow.name}\u0000${JSON.stringify(flow.tags)}`;
    const items: Array<Buffer | Error | undefined> = listed.map(({ flow, trail }) => {
      const hit = rendered.get(trail.id);
      return hit !== undefined && hit.version === trail.version && hit.flowKey === flowKeyOf(flow)
        ? hit.json
        : undefined;
    });
    const missing = listed.flatMap(({ trail }, index) => (items[index] === undefined ? [trail.id] : []));
    if (missing.length > 0) {
      const [trails, attestations, artifacts, events] = await Promise.all([
        store.trails.byIds(missing),
        store.attestations.inTrails(missing),
        store.artifacts.inTrails(missing),
        store.trails.eventsOf(missing),
      ]);
      for (const [index, { flow, trail: ref }] of listed.entries()) {
        if (items[index] !== undefined) continue;
        try {
          const trail = ok(trails.get(ref.id), `trail ${ref.id}`);
          const rows: TrailRows = {
            attestations: ok(attestations.get(ref.id), `attestations of trail ${ref.id}`),
            artifacts: ok(artifacts.get(ref.id), `artifacts of trail ${ref.id}`),
            events: ok(events.get(ref.id), `events of trail ${ref.id}`),
          };
          const json = Buffer.from(JSON.stringify(await viewOf(store, host(), orgName, flow, trail, rows)));
          keep(ref.id, { version: ref.version, flowKey: flowKeyOf(flow), json });
          items[index] = json;
        } catch (error) {
          items[index] = error instanceof Error ? error : new Error(String(error));
        }
      }
    }
    return items as Array<Buffer | Error>;
  };
}
