// Search by fingerprint or commit, full or prefix (spec endpoint 10, reference §2.8).
import type { FastifyPluginCallback } from 'fastify';
import { orgOf } from '../auth.ts';
import type { RouteOptions } from '../context.ts';
import { artifactFactsReader } from '../../views/artifactFacts.ts';
import { searchItemView } from '../../views/artifactView.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { Artifact } from '../../store/artifacts.ts';

const searchParams = {
  type: 'object',
  required: ['org', 'value'],
  properties: { org: { type: 'string' }, value: { type: 'string', pattern: '^[a-fA-F0-9]{5,64}$' } },
} as const;

function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

export const searchRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  app.get<{ Params: { org: string; value: string } }>(
    '/search/:org/sha/:value',
    { schema: { params: searchParams } },
    async (request) => {
      const org = orgOf(request);
      const value = request.params.value.toLowerCase();
      const byFingerprint = await store.artifacts.byFingerprintPrefix(org.id, value);
      const byCommit = await store.artifacts.byCommitPrefix(org.id, value);
      const fingerprints = distinct(byFingerprint.map((artifact) => artifact.fingerprint));
      const commits = distinct(byCommit.map((artifact) => artifact.gitCommit));
      if (fingerprints.length === 0 && commits.length === 0)
        throw notFound(`No matches for '${request.params.value}'.`);
      if (fingerprints.length + commits.length > 1) {
        throw new ApiError(
          400,
          `Results for '${request.params.value}' are too ambiguous: it matches ${fingerprints.length} fingerprint(s) and ${commits.length} commit(s). Give more characters.`,
        );
      }
      const type = fingerprints.length === 1 ? 'fingerprint' : 'commit';
      const artifacts: Artifact[] = type === 'fingerprint' ? byFingerprint : byCommit;
      const facts = artifactFactsReader(store, artifacts);
      const host = context.publicUrl();
      const views: Array<Record<string, unknown>> = [];
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
  );
  done();
};
