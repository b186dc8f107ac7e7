// Artifacts (reference §2.4, spec endpoint 6): attest (also the legacy form without a trail), get
// by fingerprint prefix and by commit, latest commit, list per org newest first.
import type { FastifyPluginCallback } from 'fastify';
import { orgOf, principalOf } from '../auth.ts';
import { bodySchema } from '../requestBodies.ts';
import type { RouteOptions } from '../context.ts';
import { artifactFactsReader } from '../../views/artifactFacts.ts';
import { artifactView } from '../../views/artifactView.ts';
import { renderEach } from '../../views/placeholders.ts';
import { ARTIFACT_NAME, HEX_PREFIX } from '../names.ts';
import { pageOf, pageQuery } from '../../views/paging.ts';
import { notFound } from '../../errors.ts';
import { nowSeconds } from '../../clock.ts';
import { newId } from '../../ids.ts';
import { artifactAttestedDeliveries, deliverSoon } from '../../delivery/notifications.ts';
import type { Artifact } from '../../store/artifacts.ts';
import type { Flow } from '../../store/flows.ts';
import { isUnreadable } from '../../store/db.ts';
import type { Store } from '../../store/index.ts';
import type { Org } from '../../store/orgs.ts';
import type { Trail } from '../../store/trails.ts';
import { flowOr404 } from '../../services/lookups.ts';

interface ArtifactInput {
  fingerprint: string;
  filename: string;
  git_commit?: string | null;
  git_commit_info?: { sha1?: string } | null;
  repo_info?: { name?: string } | null;
  build_url?: string | null;
  commit_url?: string | null;
  repo_url?: string | null;
  template_reference_name?: string | null;
  trail_name?: string | null;
  external_urls?: Record<string, unknown> | null;
  annotations?: Record<string, string> | null;
  commits_list?: unknown[] | null;
  user_data?: unknown;
}

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

const listQuery = {
  type: 'object',
  properties: {
    ...pageQuery,
    flow_name: { type: 'string', pattern: ARTIFACT_NAME, maxLength: 255 },
    repo_name: { type: 'string' },
  },
} as const;

/** The slot an artifact fills when the request names none (the legacy form's convention). */
const DEFAULT_SLOT = 'artifact';

function artifactNotInFlow(org: Org, flow: Flow, fingerprint: string) {
  return notFound(
    `Artifact with fingerprint '${fingerprint}' does not exist in flow '${flow.name}' belonging to organization '${org.name}'`,
  );
}

/** The id of the named trail, begun now when missing (the legacy form names it after the commit). */
async function trailFor(
  store: Store,
  org: Org,
  flow: Flow,
  name: string,
  createdBy: string,
  now: number,
): Promise<string> {
  const existing = await store.trails.byName(flow.id, name);
  if (existing !== undefined) return existing.id;
  const trail: Omit<Trail, 'version'> = {
    id: newId(),
    orgId: org.id,
    flowId: flow.id,
    name,
    description: '',
    template: flow.template,
    body: {},
    createdBy,
    createdAt: now,
    lastModifiedAt: now,
  };
  await store.trails.create(trail);
  await store.trails.appendEvent(trail.id, { type: 'trail_reported', timestamp: now });
  return trail.id;
}

export const artifactRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  app.post<{ Params: { org: string; flow: string }; Body: ArtifactInput }>(
    '/artifacts/:org/:flow',
    { schema: { body: bodySchema('artifact-create') } },
    async (request, reply) => {
      const org = orgOf(request);
      const input = request.body;
      const createdBy = principalOf(request).name;
      const gitCommit = input.git_commit ?? input.git_commit_info?.sha1 ?? '';
      const trailName = input.trail_name ?? (gitCommit || input.fingerprint);
      const slot = input.template_reference_name ?? DEFAULT_SLOT;
      const { created, deliveries } = await store.transaction(async () => {
        const flow = await flowOr404(store, org, request.params.flow);
        const now = nowSeconds();
        const trailId = await trailFor(store, org, flow, trailName, createdBy, now);
        const body: Record<string, unknown> = {};
        for (const key of [
          'git_commit_info',
          'repo_info',
          'build_url',
          'commit_url',
          'repo_url',
          'external_urls',
          'annotations',
          'commits_list',
          'user_data',
        ] as const) {
          if (input[key] !== undefined && input[key] !== null) body[key] = input[key];
        }
        const repoName = input.repo_info?.name ?? null;
        const existing = await store.artifacts.inTrailUnder(trailId, input.fingerprint, slot);
        if (existing !== undefined) {
          // Attesting again updates what the request carries and keeps the rest.
          await store.artifacts.update(
            existing.id,
            {
              filename: input.filename,
              gitCommit: gitCommit || existing.gitCommit,
              repoName: repoName ?? existing.repoName,
              body: { ...existing.body, ...body },
            },
            now,
          );
          return { created: false, deliveries: [] };
        }
        await store.artifacts.create({
          id: newId(),
          orgId: org.id,
          flowId: flow.id,
          trailId,
          fingerprint: input.fingerprint,
          templateReferenceName: slot,
          filename: input.filename,
          gitCommit,
          repoName,
          body,
          createdAt: now,
          lastModifiedAt: now,
        });
        await store.trails.appendEvent(trailId, {
          type: 'artifact_creation_reported',
          timestamp: now,
          artifact_name: input.filename,
          template_reference_name: slot,
          artifact_fingerprint: input.fingerprint,
        });
        const attested = {
          flowName: request.params.flow,
          trailName,
          fingerprint: input.fingerprint,
          filename: input.filename,
          templateReferenceName: slot,
          gitCommit,
        };
        return { created: true, deliveries: await artifactAttestedDeliveries(context, org, attested) };
      });
      deliverSoon(context, deliveries);
      return reply.code(created ? 201 : 200).send({ message: 'OK' });
    },
  );

  app.get<{ Params: { org: string; flow: string; fingerprint: string }; Querystring: { trail?: string } }>(
    '/artifacts/:org/:flow/fingerprint/:fingerprint',
    {
      schema: { params: fingerprintParams, querystring: { type: 'object', properties: { trail: { type: 'string' } } } },
    },
    async (request) => {
      const org = orgOf(request);
      const flow = await flowOr404(store, org, request.params.flow);
      const prefix = request.params.fingerprint.toLowerCase();
      const matches = (await store.artifacts.byFingerprintPrefix(org.id, prefix, flow.id)).filter(
        (artifact) => request.query.trail === undefined || artifact.trailName === request.query.trail,
      );
      const artifact = matches[0];
      if (artifact === undefined) throw artifactNotInFlow(org, flow, request.params.fingerprint);
      return artifactView(context.publicUrl(), org.name, artifact, await artifactFactsReader(store)(artifact));
    },
  );

  app.get<{ Params: { org: string; flow: string; sha: string } }>(
    '/artifacts/:org/:flow/commit_sha/:sha',
    { schema: { params: commitParams } },
    async (request) => {
      const org = orgOf(request);
      const flow = await flowOr404(store, org, request.params.flow);
      const artifacts = await store.artifacts.byCommitPrefix(org.id, request.params.sha.toLowerCase(), flow.id);
      const facts = artifactFactsReader(store, artifacts);
      const host = context.publicUrl();
      const views: Array<Record<string, unknown>> = [];
      for (const artifact of artifacts) views.push(artifactView(host, org.name, artifact, await facts(artifact)));
      return views;
    },
  );

  app.get<{ Params: { org: string; flow: string; fingerprint: string }; Querystring: { branch?: string } }>(
    '/artifacts/:org/:flow/:fingerprint/latest_commit',
    {
      schema: {
        params: fingerprintParams,
        querystring: { type: 'object', properties: { branch: { type: 'string' } } },
      },
    },
    async (request) => {
      const org = orgOf(request);
      const flow = await flowOr404(store, org, request.params.flow);
      const onBranch = (artifact: Artifact): boolean =>
        request.query.branch === undefined ||
        (artifact.body.git_commit_info as { branch?: string } | undefined)?.branch === request.query.branch;
      const latest = (
        await store.artifacts.byFingerprintPrefix(org.id, request.params.fingerprint.toLowerCase(), flow.id)
      ).find(onBranch);
      return { latest_commit: latest?.gitCommit || null };
    },
  );

  app.get<{
    Params: { org: string };
    Querystring: { page?: number; per_page?: number; flow_name?: string; repo_name?: string };
  }>('/artifacts/:org', { schema: { querystring: listQuery } }, async (request) => {
    const org = orgOf(request);
    const query = request.query;
    const flowId = query.flow_name === undefined ? undefined : (await flowOr404(store, org, query.flow_name)).id;
    if (query.repo_name !== undefined && !(await store.artifacts.repoExists(org.id, query.repo_name)))
      throw notFound(`Repo '${query.repo_name}' not found`);
    const { perPage, offset } = pageOf(query, 15);
    const host = context.publicUrl();
    const artifacts = await store.artifacts.page(org.id, { flowId, repoName: query.repo_name }, perPage, offset);
    const facts = artifactFactsReader(
      store,
      artifacts.filter((artifact): artifact is Artifact => !isUnreadable(artifact)),
    );
    return await renderEach(
      artifacts,
      (artifact) => artifact.id,
      async (artifact) => artifactView(host, org.name, artifact, await facts(artifact)),
    );
  });
  done();
};
