// What an artifact view needs from its trail, read once per trail for one request. Given the
// artifacts a list will render, the reader reads what all their trails need in a few statements
// (trails, attestations, artifacts, events) instead of four per trail.
import type { Artifact } from '../store/artifacts.ts';
import type { Store } from '../store/index.ts';
import type { ArtifactFacts } from './artifactView.ts';
import { evaluationOf } from '../rules/compliance.ts';

/** The value, or the error that stands for it, thrown where the item that needs it is rendered. */
function ok<T>(value: T | Error | undefined, what: string): T {
  if (value instanceof Error) throw value;
  if (value === undefined) throw new Error(`${what} not found`);
  return value;
}

export function artifactFactsReader(
  store: Store,
  listed: readonly Artifact[] = [],
): (artifact: Artifact) => Promise<ArtifactFacts> {
  const byTrail = new Map<string, ArtifactFacts>();
  let batch: Promise<(trailId: string) => Promise<ArtifactFacts>> | undefined;
  const readBatch = async (): Promise<(trailId: string) => Promise<ArtifactFacts>> => {
    const ids = listed.map((artifact) => artifact.trailId);
    const [trails, attestations, artifacts, events] = await Promise.all([
      store.trails.byIds(ids),
      store.attestations.inTrails(ids),
      store.artifacts.inTrails(ids),
      store.trails.eventsOf(ids),
    ]);
    return async (trailId) => {
      const inTrail = ok(attestations.get(trailId), `attestations of trail ${trailId}`);
      return {
        evaluation: await evaluationOf(
          store,
          ok(trails.get(trailId), `trail ${trailId}`),
          inTrail,
          ok(artifacts.get(trailId), `artifacts of trail ${trailId}`),
        ),
        events: ok(events.get(trailId), `events of trail ${trailId}`),
        attestations: inTrail,
      };
    };
  };
  return async (artifact) => {
    let facts = byTrail.get(artifact.trailId);
    if (facts === undefined) {
      if (listed.some((item) => item.trailId === artifact.trailId)) {
        batch ??= readBatch();
        facts = await (await batch)(artifact.trailId);
      } else {
        const trail = (await store.trails.byId(artifact.trailId))!;
        const attestations = await store.attestations.inTrail(trail.id);
        facts = {
          evaluation: await evaluationOf(store, trail, attestations),
          events: await store.trails.events(trail.id),
          attestations,
        };
      }
      byTrail.set(artifact.trailId, facts);
    }
    return facts;
  };
}
