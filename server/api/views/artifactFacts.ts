// What an artifact view needs from its trail, read once per trail for one request.
import type { Artifact } from '../store/artifacts.ts';
import type { Store } from '../store/index.ts';
import type { ArtifactFacts } from './artifactView.ts';
import { evaluationOf } from '../rules/compliance.ts';

export function artifactFactsReader(store: Store): (artifact: Artifact) => Promise<ArtifactFacts> {
  const byTrail = new Map<string, ArtifactFacts>();
  return async (artifact) => {
    let facts = byTrail.get(artifact.trailId);
    if (facts === undefined) {
      const trail = (await store.trails.byId(artifact.trailId))!;
      const attestations = await store.attestations.inTrail(trail.id);
      facts = { evaluation: await evaluationOf(store, trail, attestations), events: await store.trails.events(trail.id), attestations };
      byTrail.set(artifact.trailId, facts);
    }
    return facts;
  };
}
