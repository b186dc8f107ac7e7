// Trails rendered for their answers: one read whole, and the render cache the lists use, which
// reuses a trail's JSON until a write changes how the trail reads.
import type { Trail as TrailAnswer } from '../../../shared/contract/types.ts';
import { evaluationOf } from '../rules/compliance.ts';
import type { Flow } from '../store/flows.ts';
import type { Store } from '../store/index.ts';
import type { Trail, TrailRef } from '../store/trails.ts';
import { trailView } from '../views/trailView.ts';
import type { ServiceDeps } from './index.ts';

/** A trail as the API answers it, its attestations, artifacts and events read now. */
export async function trailAnswerOf(
  store: Store,
  host: string,
  orgName: string,
  flow: Flow,
  trail: Trail,
): Promise<TrailAnswer> {
  const attestations = await store.attestations.inTrail(trail.id);
  const artifacts = await store.artifacts.inTrail(trail.id);
  const evaluation = await evaluationOf(store, trail, attestations, artifacts);
  return trailView(host, orgName, flow, trail, evaluation, await store.trails.events(trail.id));
}

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
 * see migration 003) and its flow's name and tags stay the same. A trail's answer shows each
 * slot's status, which is evaluated from its attestations and artifacts, so a list without this
 * cache would read those rows for every trail it shows; with it, a list is mostly buffer copies.
 * The trails not kept are read together, in four statements for all of them. Each item is its
 * JSON, or the error that kept it from being rendered (its rows could not be read).
 */
export function trailJsonCache({
  store,
  publicUrl,
}: Pick<ServiceDeps, 'store' | 'publicUrl'>): (
  orgName: string,
  listed: readonly ListedTrail[],
) => Promise<Array<Buffer | Error>> {
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
      const trails = await store.trails.byIds(missing);
      const attestations = await store.attestations.inTrails(missing);
      const artifacts = await store.artifacts.inTrails(missing);
      const events = await store.trails.eventsOf(missing);
      for (const [index, { flow, trail: ref }] of listed.entries()) {
        if (items[index] !== undefined) continue;
        try {
          const trail = ok(trails.get(ref.id), `trail ${ref.id}`);
          const evaluation = await evaluationOf(
            store,
            trail,
            ok(attestations.get(ref.id), `attestations of trail ${ref.id}`),
            ok(artifacts.get(ref.id), `artifacts of trail ${ref.id}`),
          );
          const trailEvents = ok(events.get(ref.id), `events of trail ${ref.id}`);
          const json = Buffer.from(
            JSON.stringify(trailView(publicUrl(), orgName, flow, trail, evaluation, trailEvents)),
          );
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
