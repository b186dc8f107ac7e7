// Artifacts (reference §2.4, spec endpoint 6): attested into a trail (also the legacy form without
// one, which names the trail after the commit), found by fingerprint prefix and by commit, the
// latest commit of a fingerprint, and the org's list newest first.
import type { Artifact as ArtifactAnswer } from '../../../shared/contract/types.ts';
import type { BodyOf } from '../../../shared/schemas/index.ts';
import { nowSeconds } from '../clock.ts';
import { artifactAttestedDeliveries, deliverSoon } from '../delivery/notifications.ts';
import { artifactNotFound } from '../notFound.ts';
import { newId } from '../ids.ts';
import type { Artifact } from '../store/artifacts.ts';
import { isUnreadable } from '../store/db.ts';
import type { Flow } from '../store/flows.ts';
import type { Org } from '../store/orgs.ts';
import type { Trail, TrailEvent } from '../store/trails.ts';
import { artifactView, attestationsOf } from '../views/artifactView.ts';
import { renderEach, type Placeholder } from '../views/placeholders.ts';
import { artifactFactsReader } from './artifactFacts.ts';
import type { ServiceDeps } from './index.ts';
import { flowOr404, reportedRepoOr404 } from './lookups.ts';

/** The slot an artifact fills when the request names none (the legacy form's convention). */
const DEFAULT_SLOT = 'artifact';

/** Fields of the request an artifact keeps as they were sent. */
const BODY_FIELDS = [
  'git_commit_info',
  'repo_info',
  'build_url',
  'commit_url',
  'repo_url',
  'external_urls',
  'annotations',
  'commits_list',
  'description',
  'is_compliant',
  'template',
  'user_data',
] as const;

export interface ArtifactFilter {
  flow_name?: string;
  repo_name?: string;
}

export function artifactService(deps: Pick<ServiceDeps, 'store' | 'publicUrl' | 'deliverer'>) {
  const { store, publicUrl } = deps;

  /**
   * The id of the named trail, begun now when missing (the legacy form names it after the commit),
   * its event carrying the artifact's commit and repository.
   */
  const trailFor = async (
    org: Org,
    flow: Flow,
    name: string,
    reported: Pick<TrailEvent, 'git_commit_info' | 'repo_info'>,
    createdBy: string,
    now: number,
  ): Promise<string> => {
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
    await store.trails.appendEvent(trail.id, {
      type: 'trail_reported',
      timestamp: now,
      ...reported,
      trail_data_json: { name, description: '', template_id: flow.template.id },
    });
    return trail.id;
  };

  return {
    /**
     * Attests the artifact into its trail (begun when missing) and stores the webhook deliveries
     * that calls for; attesting it again updates what the request carries and keeps the rest.
     * Answers whether it was new.
     */
    async attest(org: Org, flowName: string, input: BodyOf<'artifact-create'>, createdBy: string): Promise<boolean> {
      const gitCommit = input.git_commit ?? input.git_commit_info?.sha1 ?? '';
      const trailName = input.trail_name ?? (gitCommit || input.fingerprint);
      const slot = input.template_reference_name ?? DEFAULT_SLOT;
      const { created, deliveries } = await store.transaction(async () => {
        const flow = await flowOr404(store, org, flowName);
        const now = nowSeconds();
        const reported = { git_commit_info: input.git_commit_info ?? null, repo_info: input.repo_info ?? null };
        const trailId = await trailFor(org, flow, trailName, reported, createdBy, now);
        const body: Record<string, unknown> = {};
        for (const key of BODY_FIELDS) if (input[key] !== undefined && input[key] !== null) body[key] = input[key];
        const repoName = input.repo_info?.name ?? null;
        const existing = await store.artifacts.inTrailUnder(trailId, input.fingerprint, slot);
        if (existing !== undefined) {
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
        const id = newId();
        await store.artifacts.create({
          id,
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
          ...reported,
          artifact_fingerprint: input.fingerprint,
          artifact_name: input.filename,
          artifact_id: id,
          template_reference_name: slot,
          git_commit: gitCommit,
        });
        const attested = {
          flowName,
          trailName,
          fingerprint: input.fingerprint,
          filename: input.filename,
          templateReferenceName: slot,
          gitCommit,
        };
        return { created: true, deliveries: await artifactAttestedDeliveries(deps, org, attested) };
      });
      deliverSoon(deps, deliveries);
      return created;
    },

    /**
     * The flow's latest artifact whose fingerprint starts with `prefix`, in `trail` when named, and
     * the one the attestation `attestation_id` is about when named (reference §8.4); 404 otherwise.
     */
    async byFingerprint(
      org: Org,
      flowName: string,
      prefix: string,
      narrowing: { trail?: string; attestation_id?: string },
    ): Promise<ArtifactAnswer> {
      const flow = await flowOr404(store, org, flowName);
      const about =
        narrowing.attestation_id === undefined
          ? undefined
          : ((await store.attestations.byId(org.id, narrowing.attestation_id)) ?? null);
      const matches = (await store.artifacts.byFingerprintPrefix(org.id, prefix.toLowerCase(), flow.id)).filter(
        (artifact) =>
          (narrowing.trail === undefined || artifact.trailName === narrowing.trail) &&
          (about === undefined ||
            (about !== null && about.trailId === artifact.trailId && attestationsOf(artifact, [about]).length > 0)),
      );
      const artifact = matches[0];
      if (artifact === undefined) throw artifactNotFound(org.name, prefix, flow.name);
      return artifactView(publicUrl(), org.name, artifact, await artifactFactsReader(store)(artifact));
    },

    /** The flow's artifacts built from a commit whose sha starts with `prefix`, in `trail` when named. */
    async byCommit(org: Org, flowName: string, prefix: string, trail?: string): Promise<ArtifactAnswer[]> {
      const flow = await flowOr404(store, org, flowName);
      const artifacts = (await store.artifacts.byCommitPrefix(org.id, prefix.toLowerCase(), flow.id)).filter(
        (artifact) => trail === undefined || artifact.trailName === trail,
      );
      const facts = artifactFactsReader(store, artifacts);
      const host = publicUrl();
      const views: ArtifactAnswer[] = [];
      for (const artifact of artifacts) views.push(artifactView(host, org.name, artifact, await facts(artifact)));
      return views;
    },

    /** The commit of the flow's latest artifact with that fingerprint prefix (on `branch` when named), or null. */
    async latestCommitOf(
      org: Org,
      flowName: string,
      prefix: string,
      branch: string | undefined,
    ): Promise<string | null> {
      const flow = await flowOr404(store, org, flowName);
      const onBranch = (artifact: Artifact): boolean =>
        branch === undefined || (artifact.body.git_commit_info as { branch?: string } | undefined)?.branch === branch;
      const latest = (await store.artifacts.byFingerprintPrefix(org.id, prefix.toLowerCase(), flow.id)).find(onBranch);
      return latest?.gitCommit || null;
    },

    /** A page of the org's artifacts, newest first, in one flow or repo when named; each unreadable one a placeholder. */
    async pageOf(
      org: Org,
      filter: ArtifactFilter,
      limit: number,
      offset: number,
    ): Promise<Array<ArtifactAnswer | Placeholder>> {
      const flowId = filter.flow_name === undefined ? undefined : (await flowOr404(store, org, filter.flow_name)).id;
      if (filter.repo_name !== undefined) await reportedRepoOr404(store, org, filter.repo_name);
      const host = publicUrl();
      const artifacts = await store.artifacts.page(org.id, { flowId, repoName: filter.repo_name }, limit, offset);
      const facts = artifactFactsReader(
        store,
        artifacts.filter((artifact): artifact is Artifact => !isUnreadable(artifact)),
      );
      return await renderEach(
        artifacts,
        (artifact) => artifact.id,
        async (artifact) => artifactView(host, org.name, artifact, await facts(artifact)),
      );
    },
  };
}
