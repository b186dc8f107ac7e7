// Snapshots (reference §2.7, §5.5), environment events (§5.6), the snapshot diff (§5.7) and the
// audit log (spec endpoint 12).
import { Readable } from 'node:stream';
import type { FastifyPluginCallback } from 'fastify';
import { orgOf } from '../auth.ts';
import { sendDownload } from '../downloads.ts';
import type { AppContext, RouteOptions } from '../context.ts';
import { ApiError, badRequest, invalid, withInput } from '../../errors.ts';
import { environmentNotFound } from '../../notFound.ts';
import { nowSeconds } from '../../clock.ts';
import { auditLogChunks } from '../../views/auditLogCsv.ts';
import type { SnapshotArtifact } from '../../rules/snapshotArtifacts.ts';
import {
  resolveBound,
  resolveInterval,
  resolveSnapshotExpression,
  splitSnappish,
  type IndexRange,
  type SnapshotTimeline,
} from '../../rules/snapshotExpressions.ts';
import { environmentOr404 } from '../../services/lookups.ts';
import { pageOf, pageQueryOf } from '../../views/paging.ts';
import { htmlUrl } from '../../views/urls.ts';
import type { Environment } from '../../store/environments.ts';
import type { Org } from '../../store/orgs.ts';
import type { AuditLogFilter, EnvironmentEvent, StoredSnapshot } from '../../store/snapshots.ts';
import { envParams } from './params.ts';

const listQuery = {
  type: 'object',
  properties: {
    ...pageQueryOf(1000),
    interval: { type: 'string' },
    reverse: { type: 'boolean' },
  },
} as const;

const eventsQuery = {
  type: 'object',
  properties: {
    ...listQuery.properties,
    repo_name: { type: 'array', items: { type: 'string' } },
    start: { type: 'string' },
    end: { type: 'string' },
    start_ts: { type: 'number' },
    end_ts: { type: 'number' },
  },
} as const;

const AUDIT_EVENT_TYPES = ['started', 'exited', 'changed'];

const auditQuery = {
  type: 'object',
  properties: {
    from_timestamp: { type: 'integer' },
    to_timestamp: { type: 'integer' },
    event_types: { type: 'string' },
    flow_names: { type: 'string' },
    repo_names: { type: 'string' },
  },
} as const;

/** How many audit-log rows one database read fetches: bounds the memory an export holds. */
const AUDIT_BATCH = 2000;

/**
 * What a snapshot expression resolves to on the environment's timeline. The rules are pure and
 * synchronous: a first pass names the times they look up, the store answers those, and a second
 * pass resolves with the answers.
 */
async function resolvedOn<T>(
  context: AppContext,
  environment: Environment,
  resolve: (timeline: SnapshotTimeline) => T,
): Promise<T> {
  const now = nowSeconds();
  const asked = new Set<number>();
  resolve({ count: environment.snapshotCount, now, indexAt: (timestamp) => (asked.add(timestamp), 0) });
  const indexes = new Map<number, number>();
  for (const timestamp of asked)
    indexes.set(timestamp, await context.store.snapshots.indexAt(environment.id, timestamp));
  return resolve({ count: environment.snapshotCount, now, indexAt: (timestamp) => indexes.get(timestamp)! });
}

function orThrow<T extends object>(result: T | { error: string; status: 400 }): T {
  if ('error' in result) throw new ApiError(result.status, result.error);
  return result;
}

function snapshotView(context: AppContext, org: Org, environment: Environment, snapshot: StoredSnapshot) {
  const next = snapshot.index < environment.snapshotCount ? snapshot.endedAt : null;
  return {
    index: snapshot.index,
    is_latest: snapshot.index === environment.snapshotCount,
    next_snapshot_timestamp: next,
    timestamp: snapshot.startedAt,
    from: snapshot.startedAt,
    to: snapshot.endedAt,
    type: environment.type,
    compliant: snapshot.compliant,
    artifact_compliance_count: snapshot.complianceCount,
    event_counts: snapshot.eventCounts,
    html_url: `${htmlUrl.environment(context.publicUrl(), org.name, environment.name)}/snapshots/${snapshot.index}`,
    applied_policies: snapshot.appliedPolicies,
    artifacts: snapshot.artifacts,
  };
}

function eventView(context: AppContext, org: Org, environment: Environment, event: EnvironmentEvent) {
  const api = `${context.publicUrl()}/api/v2`;
  return {
    environment_name: environment.name,
    snapshot_index: event.snapshotIndex,
    type: event.type,
    artifact_name: event.artifactName,
    sha256: event.fingerprint,
    description: event.description,
    reported_at: event.reportedAt,
    pipeline: event.pipeline,
    deployments: [],
    flows: event.flowNames.map((flowName, position) => ({
      flow_name: flowName,
      trail_name: event.trailNames[position] ?? '',
    })),
    repo_names: event.repoNames,
    git_commit: event.gitCommit,
    artifact_compliance: event.artifactCompliance,
    snapshot_compliance: event.snapshotCompliance,
    code_diff: null,
    _links: {
      snapshot: {
        href: `${api}/snapshots/${encodeURIComponent(org.name)}/${encodeURIComponent(environment.name)}/${event.snapshotIndex}`,
      },
    },
  };
}

function intersect(a: IndexRange, b: IndexRange): IndexRange {
  return { first: Math.max(a.first, b.first), last: Math.min(a.last, b.last) };
}

function commaList(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length === 0 ? undefined : items;
}

interface DiffArtifact {
  fingerprint: string;
  name: string;
  most_recent_timestamp: number | null;
  flow: string;
  commit_url: string;
  instance_count: number;
  pods?: SnapshotArtifact['pods'];
}

function diffArtifactOf(artifact: SnapshotArtifact): DiffArtifact {
  const out: DiffArtifact = {
    fingerprint: artifact.fingerprint,
    name: artifact.name,
    most_recent_timestamp: artifact.creationTimestamp.length === 0 ? null : Math.max(...artifact.creationTimestamp),
    flow: artifact.flow_name,
    commit_url: artifact.commit_url,
    instance_count: artifact.annotation.now,
  };
  if (artifact.pods !== null) out.pods = artifact.pods;
  return out;
}

export const snapshotRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  app.get<{
    Params: { org: string; env: string };
    Querystring: { page?: number; per_page?: number; interval?: string; reverse?: boolean };
  }>('/snapshots/:org/:env', { schema: { params: envParams, querystring: listQuery } }, async (request) => {
    const org = orgOf(request);
    const environment = await environmentOr404(context.store, org, request.params.env);
    const { range } = orThrow(
      await resolvedOn(context, environment, (timeline) => resolveInterval(request.query.interval ?? '', timeline)),
    );
    // Newest first, as clients list them; `reverse` lists oldest first.
    const { perPage, offset, requested } = pageOf(request.query, 15);
    const snapshots = await store.snapshots.list(
      environment.id,
      range.first,
      range.last,
      request.query.reverse !== true,
      requested ? { limit: perPage, offset } : undefined,
    );
    const now = nowSeconds();
    return snapshots.map((snapshot) => ({
      index: snapshot.index,
      from: snapshot.startedAt,
      to: snapshot.endedAt,
      compliant: snapshot.compliant,
      duration: (snapshot.endedAt === 0 ? now : snapshot.endedAt) - snapshot.startedAt,
    }));
  });

  app.get<{ Params: { org: string; env: string; expr: string } }>(
    '/snapshots/:org/:env/:expr',
    {
      schema: {
        params: {
          ...envParams,
          required: ['org', 'env', 'expr'],
          properties: { ...envParams.properties, expr: { type: 'string' } },
        },
      },
    },
    async (request) => {
      const org = orgOf(request);
      const environment = await environmentOr404(context.store, org, request.params.env);
      const { index } = orThrow(
        await resolvedOn(context, environment, (timeline) =>
          resolveSnapshotExpression(org.name, environment.name, request.params.expr, timeline),
        ),
      );
      return snapshotView(context, org, environment, (await store.snapshots.get(environment.id, index))!);
    },
  );

  app.get<{
    Params: { org: string; env: string };
    Querystring: {
      page?: number;
      per_page?: number;
      interval?: string;
      reverse?: boolean;
      repo_name?: string[];
      start?: string;
      end?: string;
      start_ts?: number;
      end_ts?: number;
    };
  }>(
    '/environments/:org/:env/events',
    { schema: { params: envParams, querystring: eventsQuery } },
    async (request, reply) => {
      const org = orgOf(request);
      const query = request.query;
      const environment = await environmentOr404(context.store, org, request.params.env);
      const [interval, start, end] = await resolvedOn(context, environment, (timeline) => [
        resolveInterval(query.interval ?? '', timeline),
        query.start === undefined ? undefined : resolveBound(query.start, timeline),
        query.end === undefined ? undefined : resolveBound(query.end, timeline),
      ]);
      let range = orThrow(interval).range;
      if (start !== undefined) range = intersect(range, { first: orThrow(start).index, last: Infinity });
      if (end !== undefined) range = intersect(range, { first: -Infinity, last: orThrow(end).index });
      const { page, perPage, offset } = pageOf(query, 100);
      const { events, total } = await store.snapshots.events(environment.id, {
        first: range.first,
        last: range.last,
        fromTimestamp: query.start_ts,
        toTimestamp: query.end_ts,
        repoNames: query.repo_name,
        reverse: query.reverse !== true,
        offset,
        limit: perPage,
      });
      reply.header('x-total-count', String(total));
      reply.header('x-total-pages', String(Math.ceil(total / perPage)));
      reply.header('x-page', String(page));
      reply.header('x-per-page', String(perPage));
      return events.map((event) => eventView(context, org, environment, event));
    },
  );

  app.get<{
    Params: { org: string; env: string };
    Querystring: {
      from_timestamp?: number;
      to_timestamp?: number;
      event_types?: string;
      flow_names?: string;
      repo_names?: string;
    };
  }>(
    '/environments/:org/:env/auditlog',
    {
      schema: {
        params: envParams,
        querystring: auditQuery,
        description:
          'The environment audit log as CSV (text/csv), one row per environment event, oldest first, streamed. Columns: ' +
          'timestamp (ISO 8601 UTC), reported_at (epoch seconds), event_type (started, exited or changed), environment, ' +
          'snapshot_index, artifact_name, fingerprint, flow_names, trail_names, git_commit, repo_names ' +
          '(lists separated by ";", empty when the artifact has no provenance), artifact_compliant and snapshot_compliant ' +
          '(true, false, or empty when not evaluated), description, snapshot_compliance and artifact_compliance (the ' +
          'same in words: COMPLIANT, NON-COMPLIANT, or NO POLICY where no policy judged the snapshot).',
      },
    },
    async (request, reply) => {
      const org = orgOf(request);
      const query = request.query;
      const environment = await store.environments.byName(org.id, request.params.env);
      if (environment === undefined) throw environmentNotFound(org.name, request.params.env, 'short');
      const eventTypes = commaList(query.event_types);
      const unknown = eventTypes?.find((type) => !AUDIT_EVENT_TYPES.includes(type));
      if (unknown !== undefined)
        throw invalid({ 'query.event_types': withInput("Input should be 'started', 'exited' or 'changed'", unknown) });
      if (
        query.from_timestamp !== undefined &&
        query.to_timestamp !== undefined &&
        query.from_timestamp > query.to_timestamp
      ) {
        throw badRequest('from_timestamp must not be later than to_timestamp');
      }
      const filter: AuditLogFilter = {
        fromTimestamp: query.from_timestamp,
        toTimestamp: query.to_timestamp,
        eventTypes,
        flowNames: commaList(query.flow_names),
        repoNames: commaList(query.repo_names),
      };
      const chunks = auditLogChunks<number>(
        async (after) =>
          await store.snapshots.auditLogBatch(environment.id, environment.name, filter, after ?? 0, AUDIT_BATCH),
      );
      return sendDownload(reply, {
        type: 'text/csv; charset=utf-8',
        filename: `${environment.name}-auditlog.csv`,
        content: Readable.from(chunks, { objectMode: false }),
      });
    },
  );

  app.get<{ Params: { org: string }; Querystring: { snappish1?: string; snappish2?: string } }>(
    '/env-diff/:org',
    {
      schema: {
        querystring: { type: 'object', properties: { snappish1: { type: 'string' }, snappish2: { type: 'string' } } },
      },
    },
    async (request) => {
      const org = orgOf(request);
      const resolve = async (snappish: string) => {
        const parts = splitSnappish(snappish);
        if (parts === undefined) throw badRequest(`Bad snappish ${snappish}`);
        const environment = await environmentOr404(context.store, org, parts.env);
        const { index } = orThrow(
          await resolvedOn(context, environment, (timeline) =>
            resolveSnapshotExpression(org.name, environment.name, parts.expr, timeline),
          ),
        );
        const snapshot = (await store.snapshots.get(environment.id, index))!;
        const running = snapshot.artifacts.filter((artifact) => artifact.annotation.now > 0);
        return {
          id: `${environment.name}#${index}`,
          running: new Map(running.map((artifact) => [artifact.fingerprint || artifact.name, artifact])),
        };
      };
      const first = await resolve(request.query.snappish1 ?? '');
      const second = await resolve(request.query.snappish2 ?? '');
      const onlyFirst: DiffArtifact[] = [];
      const changed: Array<DiffArtifact & { s1_instance_count: number; s2_instance_count: number }> = [];
      const same: DiffArtifact[] = [];
      for (const [key, artifact] of first.running) {
        const other = second.running.get(key);
        if (other === undefined) onlyFirst.push(diffArtifactOf(artifact));
        else if (other.annotation.now !== artifact.annotation.now) {
          changed.push({
            ...diffArtifactOf(other),
            s1_instance_count: artifact.annotation.now,
            s2_instance_count: other.annotation.now,
          });
        } else same.push(diffArtifactOf(other));
      }
      const onlySecond = [...second.running]
        .filter(([key]) => !first.running.has(key))
        .map(([, artifact]) => diffArtifactOf(artifact));
      return {
        snappish1: { snapshot_id: first.id, artifacts: onlyFirst },
        snappish2: { snapshot_id: second.id, artifacts: onlySecond },
        changed: { artifacts: changed },
        'not-changed': { artifacts: same },
      };
    },
  );
  done();
};
