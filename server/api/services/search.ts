// Search by fingerprint or commit, full or prefix (spec endpoint 10, reference §2.8): what one
// value resolves to across the org, and the artifacts it names; and, for the pages' search box,
// the flows, trails and artifacts whose names contain a text.
import type { SearchArtifact, SearchResult } from '../../../shared/contract/types.ts';
import { ApiError } from '../errors.ts';
import { noMatches } from '../notFound.ts';
import type { Artifact } from '../store/artifacts.ts';
import { isUnreadable } from '../store/db.ts';
import type { Flow } from '../store/flows.ts';
import type { TrailHeadline } from '../store/trails.ts';
import type { Org } from '../store/orgs.ts';
import { searchItemView } from '../views/artifactView.ts';
import { artifactFactsReader } from './artifactFacts.ts';
import type { ServiceDeps } from './index.ts';

/** What a name search finds of each kind, at most the limit asked for; `more` when a kind has more. */
export interface NameMatches {
  flows: Flow[];
  trails: TrailHeadline[];
  artifacts: Artifact[];
  more: { flows: boolean; trails: boolean; artifacts: boolean };
}

function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

export function searchService({ store, publicUrl }: Pick<ServiceDeps, 'store' | 'publicUrl'>) {
  return {
    /** The live flows, trails and artifacts whose names contain `text`, case aside: at most `limit` of each, the latest first. */
    async namesContaining(org: Org, text: string, limit: number): Promise<NameMatches> {
      const folded = text.toLowerCase();
      const [flows, trails, artifacts] = await Promise.all([
        store.flows.page(org.id, { nameContains: folded, sort: 'latest_activity', descending: true }, limit + 1, 0),
        store.trails.headlines(org.id, { nameContains: folded }, limit + 1),
        store.artifacts.namedLike(org.id, folded, limit + 1),
      ]);
      const readable = flows.flows.filter((flow): flow is Flow => !isUnreadable(flow));
      return {
        flows: readable.slice(0, limit),
        trails: trails.slice(0, limit),
        artifacts: artifacts.slice(0, limit),
        more: { flows: flows.total > limit, trails: trails.length > limit, artifacts: artifacts.length > limit },
      };
    },

    /** The one fingerprint or commit `value` starts (404 for none, 400 for several), with its artifacts. */
    async resultOf(org: Org, value: string): Promise<SearchResult> {
      const prefix = value.toLowerCase();
      const byFingerprint = await store.artifacts.byFingerprintPrefix(org.id, prefix);
      const byCommit = await store.artifacts.byCommitPrefix(org.id, prefix);
      const fingerprints = distinct(byFingerprint.map((artifact) => artifact.fingerprint));
      const commits = distinct(byCommit.map((artifact) => artifact.gitCommit));
      if (fingerprints.length === 0 && commits.length === 0) throw noMatches(value);
      if (fingerprints.length + commits.length > 1) {
        throw new ApiError(
          400,
          `Results for '${value}' are too ambiguous: it matches ${fingerprints.length} fingerprint(s) and ${commits.length} commit(s). Give more characters.`,
        );
      }
      const type = fingerprints.length === 1 ? 'fingerprint' : 'commit';
      const artifacts: Artifact[] = type === 'fingerprint' ? byFingerprint : byCommit;
      const facts = artifactFactsReader(store, artifacts);
      const host = publicUrl();
      const views: SearchArtifact[] = [];
      for (const artifact of artifacts) views.push(searchItemView(host, org.name, artifact, await facts(artifact)));
      return {
        resolved_to: {
          type,
          full_match: type === 'fingerprint' ? fingerprints[0] : commits[0],
          fingerprints: { type: 'fingerprint', count: fingerprints.length, matches: fingerprints },
          commits: { type: 'commit', count: commits.length, matches: commits },
        },
        artifacts: views,
      };
    },
  };
}
