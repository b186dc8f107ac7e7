// The flow object (reference §2.1); list items add latest_activity_at and latest_state (spec).
import type { Store } from '../store/index.ts';
import type { Flow } from '../store/flows.ts';
import type { Trail } from '../store/trails.ts';
import { evaluationOf } from '../rules/compliance.ts';
import { htmlUrl } from './urls.ts';

function viewOf(
  host: string,
  orgName: string,
  flow: Flow,
  latestActivityAt: number | null,
  latestState: string | null,
): Record<string, unknown> {
  return {
    id: flow.id,
    name: flow.name,
    description: flow.description,
    visibility: flow.visibility,
    org: orgName,
    template: flow.template.content,
    repo_url: flow.repoUrl,
    tags: flow.tags,
    created_at: flow.createdAt,
    last_modified_at: flow.lastModifiedAt,
    created_by: flow.createdBy,
    html_url: htmlUrl.flow(host, orgName, flow.name),
    latest_activity_at: latestActivityAt,
    latest_state: latestState,
  };
}

/** One flow's view: its latest activity and state as stored on write, like a list's (flowViewsReader). */
export async function flowView(
  store: Store,
  host: string,
  orgName: string,
  flow: Flow,
): Promise<Record<string, unknown>> {
  return (await flowViewsReader(store, host, orgName, [flow]))(flow);
}

/**
 * flowView for the flows of a list page. A flow's latest activity and state are kept on write
 * (migration 203), so a page reads nothing more. A flow whose latest trail has no stored state
 * (a row of it changed behind the server or cannot be read) is evaluated as before: its latest
 * trail, and that trail's attestations and artifacts, read in three statements for all such flows
 * of the page. A render of one flow fails alone (its placeholder) when a row it needs cannot be read.
 */
export async function flowViewsReader(
  store: Store,
  host: string,
  orgName: string,
  flows: readonly Flow[],
): Promise<(flow: Flow) => Promise<Record<string, unknown>>> {
  const unknown = flows.filter((flow) => flow.latestActivityAt !== null && flow.latestState === null);
  const latest =
    unknown.length === 0
      ? new Map<string, Trail | Error>()
      : await store.trails.latestActiveOf(unknown.map((flow) => flow.id));
  const trailIds = [...latest.values()].flatMap((trail) => (trail instanceof Error ? [] : [trail.id]));
  const [attestations, artifacts] = await Promise.all([
    store.attestations.inTrails(trailIds),
    store.artifacts.inTrails(trailIds),
  ]);
  return async (flow) => {
    if (flow.latestActivityAt === null || flow.latestState !== null)
      return viewOf(host, orgName, flow, flow.latestActivityAt, flow.latestState);
    const trail = latest.get(flow.id);
    if (trail instanceof Error) throw trail;
    if (trail === undefined) return viewOf(host, orgName, flow, null, null);
    const inTrail = attestations.get(trail.id);
    const artifactsInTrail = artifacts.get(trail.id);
    if (inTrail instanceof Error) throw inTrail;
    if (artifactsInTrail instanceof Error) throw artifactsInTrail;
    return viewOf(
      host,
      orgName,
      flow,
      trail.lastModifiedAt,
      (await evaluationOf(store, trail, inTrail, artifactsInTrail)).compliance_state,
    );
  };
}
