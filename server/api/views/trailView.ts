// The Trail object of the spec's table and reference §3.4.
import type { Store } from '../store/index.ts';
import type { Flow } from '../store/flows.ts';
import type { Trail, TrailRef } from '../store/trails.ts';
import { evaluationOf } from '../rules/compliance.ts';
import { htmlUrl } from './urls.ts';

export async function trailView(
  store: Store,
  host: string,
  orgName: string,
  flow: Flow,
  trail: Trail,
): Promise<Record<string, unknown>> {
  const evaluation = await evaluationOf(store, trail);
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
    events: await store.trails.events(trail.id),
  };
  if (body.git_commit_info !== undefined && body.git_commit_info !== null) view.git_commit_info = body.git_commit_info;
  if (body.repo_info !== undefined && body.repo_info !== null) view.repo_info = body.repo_info;
  return view;
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

/**
 * Rendered trails as UTF-8 JSON, reused while the trail's version (moved by every write to it, see
 * migration 003) and its flow's name and tags stay the same. Lists of trails are then mostly
 * buffer copies, with nothing to encode again.
 */
export function trailJsonCache(
  store: Store,
  host: () => string,
): (orgName: string, flow: Flow, trail: TrailRef) => Promise<Buffer> {
  const rendered = new Map<string, { version: number; flowKey: string; json: Buffer }>();
  return async (orgName, flow, trail) => {
    const flowKey = `${flow.name}\u0000${JSON.stringify(flow.tags)}`;
    const hit = rendered.get(trail.id);
    if (hit !== undefined && hit.version === trail.version && hit.flowKey === flowKey) return hit.json;
    const json = Buffer.from(
      JSON.stringify(await trailView(store, host(), orgName, flow, (await store.trails.byId(trail.id))!)),
    );
    rendered.delete(trail.id);
    rendered.set(trail.id, { version: trail.version, flowKey, json });
    if (rendered.size > CACHED_TRAILS) rendered.delete(rendered.keys().next().value!);
    return json;
  };
}
