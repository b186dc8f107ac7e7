// What an artifact view needs from its trail, read once per trail for one request. Given the
// artifacts a list will render, the reader reads what all their trails need in a few statements
// (attestations and events) instead of several per trail. The trail's compliance state comes with
// the artifact's row, as stored on write (migration 203); a trail without a stored state (a row of
// it changed behind the server, or cannot be read) is evaluated from its rows as before.
import type { ComplianceState } from '../../../shared/compliance/status.ts';
import type { Artifact } from '../store/artifacts.ts';
import type { Store } from '../store/index.ts';
import type { ArtifactFacts } from '../views/artifactView.ts';
import { evaluationOf } from '../rules/compliance.ts';

/** A trail's state as stored on write, which is only ever one of the three. */
function storedState(artifact: Artifact): ComplianceState | null {
  return artifact.trailState as ComplianceState | null;
}

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
  let batch: Promise<(artifact: Artifact) => Promise<ArtifactFacts>> | undefined;
  const readBatch = async (): Promise<(artifact: Artifact) => Promise<ArtifactFacts>> => {
    const ids = listed.map((artifact) => artifact.trailId);
    const unevaluated = listed.filter((artifact) => artifact.trailState === null).map((artifact) => artifact.trailId);
    const attestations = await store.attestations.inTrails(ids);
    const events = await store.trails.eventsOf(ids);
    const trails = await store.trails.byIds(unevaluated);
    const artifacts = await store.artifacts.inTrails(unevaluated);
    return async (artifact) => {
      const trailId = artifact.trailId;
      const inTrail = ok(attestations.get(trailId), `attestations of trail ${trailId}`);
      return {
        state:
          storedState(artifact) ??
          (
            await evaluationOf(
              store,
              ok(trails.get(trailId), `trail ${trailId}`),
              inTrail,
              ok(artifacts.get(trailId), `artifacts of trail ${trailId}`),
            )
          ).compliance_state,
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
        facts = await (await batch)(artifact);
      } else {
        const trail = artifact.trailState === null ? (await store.trails.byId(artifact.trailId))! : undefined;
        const attestations = await store.attestations.inTrail(artifact.trailId);
        facts = {
          state: storedState(artifact) ?? (await evaluationOf(store, trail!, attestations)).compliance_state,
          events: await store.trails.events(artifact.trailId),
          attestations,
        };
      }
      byTrail.set(artifact.trailId, facts);
    }
    return facts;
  };
}
