// Artifacts (reference §2.4, spec endpoint 6): attest (also the legacy form without a trail), get
// by fingerprint prefix and by commit, latest commit, list per org newest first.
import { bodySchemas } from '../../../../shared/schemas/index.ts';
import { orgOf, principalOf } from '../auth.ts';
import type { RoutePlugin } from '../context.ts';
import { NAME_PATTERN } from '../../../../shared/names.ts';
import { HEX_PREFIX } from '../names.ts';
import { pageOf, pageQuery } from '../../views/paging.ts';
import { flowParams } from './params.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

const fingerprintParams = {
  type: 'object',
  required: ['org', 'flow', 'fingerprint'],
  properties: {
    org: { type: 'string' },
    flow: { type: 'string' },
    fingerprint: { type: 'string', pattern: HEX_PREFIX },
  },
} as const;

const commitParams = {
  type: 'object',
  required: ['org', 'flow', 'sha'],
  properties: { org: { type: 'string' }, flow: { type: 'string' }, sha: { type: 'string', pattern: HEX_PREFIX } },
} as const;

/** Reference §2.4, and §8.4's `attestation_id`: the artifact that attestation is about. */
const fingerprintQuery = {
  type: 'object',
  properties: { trail: { type: 'string' }, attestation_id: { type: 'string' } },
} as const;

const listQuery = {
  type: 'object',
  properties: {
    ...pageQuery,
    flow_name: { type: 'string', pattern: NAME_PATTERN, maxLength: 255 },
    repo_name: { type: 'string' },
  },
} as const;

export const artifactRoutes: RoutePlugin = (app, { services }, done) => {
  app.post(
    '/artifacts/:org/:flow',
    { schema: { params: flowParams, body: bodySchemas['artifact-create'] } },
    async (request, reply) => {
      const created = await services.artifacts.attest(
        orgOf(request),
        request.params.flow,
        request.body,
        principalOf(request).name,
      );
      return reply.code(created ? 201 : 200).send({ message: 'OK' });
    },
  );

  app.get(
    '/artifacts/:org/:flow/fingerprint/:fingerprint',
    { schema: { params: fingerprintParams, querystring: fingerprintQuery } },
    async (request) =>
      services.artifacts.byFingerprint(orgOf(request), request.params.flow, request.params.fingerprint, request.query),
  );

  app.get(
    '/artifacts/:org/:flow/commit_sha/:sha',
    { schema: { params: commitParams, querystring: { type: 'object', properties: { trail: { type: 'string' } } } } },
    async (request) =>
      services.artifacts.byCommit(orgOf(request), request.params.flow, request.params.sha, request.query.trail),
  );

  app.get(
    '/artifacts/:org/:flow/:fingerprint/latest_commit',
    {
      schema: {
        params: fingerprintParams,
        querystring: { type: 'object', properties: { branch: { type: 'string' } } },
      },
    },
    async (request) => ({
      latest_commit: await services.artifacts.latestCommitOf(
        orgOf(request),
        request.params.flow,
        request.params.fingerprint,
        request.query.branch,
      ),
    }),
  );

  app.get('/artifacts/:org', { schema: { params: orgParams, querystring: listQuery } }, async (request) => {
    const { perPage, offset } = pageOf(request.query, 15);
    return await services.artifacts.pageOf(orgOf(request), request.query, perPage, offset);
  });
  done();
};
