// Snapshots (reference §2.7, §5.5), environment events (§5.6), the audit log (spec endpoint 12) and
// the snapshot diff (§5.7): reads of an environment's timeline, where a snapshot expression
// (`~1`, `@{2 days ago}`, `3..7`) is resolved by the pure rules against the times the store knows.
import type { EnvironmentDiff, EnvironmentEvent, Snapshot, SnapshotSummary } from '../../../shared/contract/types.ts';
import { nowSeconds } from '../clock.ts';
import { ApiError, badRequest, invalid, withInput } from '../errors.ts';
import {
  resolveBound,
  resolveInterval,
  resolveSnapshotExpression,
  splitSnappish,
  type IndexRange,
  type SnapshotTimeline,
} from '../rules/snapshotExpressions.ts';
import { auditLogChunks, auditLogRowOf } from '../views/auditLogCsv.ts';
import {
  environmentDiffView,
  environmentEventView,
  snapshotSummaryView,
  snapshotView,
  type DiffSide,
} from '../views/snapshots.ts';
import type { Environment } from '../store/environments.ts';
import type { Org } from '../store/orgs.ts';
import type { AuditLogFilter } from '../store/snapshots.ts';
import type { ServiceDeps } from './index.ts';
import { environmentOr404, reportedRepoOr404 } from './lookups.ts';
import { snapshotOf } from './snapshotDocuments.ts';

const AUDIT_EVENT_TYPES = ['started', 'exited', 'changed'];

/** How many audit-log rows one database read fetches: bounds the memory an export holds. */
const AUDIT_BATCH = 2000;

/** Which events of an environment to list, newest first unless `reverse`. */
export interface EventQuery {
  interval?: string;
  reverse?: boolean;
  repo_name?: string[];
  /** Snapshot expressions bounding the range. */
  start?: string;
  end?: string;
  /** Bounds on the time each event was reported. */
  start_ts?: number;
  end_ts?: number;
}

function orThrow<T extends object>(result: T | { error: string; status: 400 }): T {
  if ('error' in result) throw new ApiError(result.status, result.error);
  return result;
}

function intersect(a: IndexRange, b: IndexRange): IndexRange {
  return { first: Math.max(a.first, b.first), last: Math.min(a.last, b.last) };
}

export function snapshotService({ store, publicUrl }: Pick<ServiceDeps, 'store' | 'publicUrl'>) {
  /**
   * What a snapshot expression resolves to on the environment's timeline. The rules are pure and
   * synchronous: a first pass names the times they look up, the store answers those, and a second
   * pass resolves with the answers.
   */
  const resolvedOn = async <T>(environment: Environment, resolve: (timeline: SnapshotTimeline) => T): Promise<T> => {
    const now = nowSeconds();
    const asked = new Set<number>();
    resolve({ count: environment.snapshotCount, now, indexAt: (timestamp) => (asked.add(timestamp), 0) });
    const indexes = new Map<number, number>();
    for (const timestamp of asked) indexes.set(timestamp, await store.snapshots.indexAt(environment.id, timestamp));
    return resolve({ count: environment.snapshotCount, now, indexAt: (timestamp) => indexes.get(timestamp)! });
  };

  /** The index a snapshot expression names in the environment, or its 400. */
  const indexOf = async (org: Org, environment: Environment, expression: string): Promise<number> =>
    orThrow(
      await resolvedOn(environment, (timeline) =>
        resolveSnapshotExpression(org.name, environment.name, expression, timeline),
      ),
    ).index;

  return {
    /** The snapshots of an interval (all by default), newest first unless `reverse`; one page when asked. */
    async summariesOf(
      org: Org,
      env: string,
      query: { interval?: string; reverse?: boolean },
      page: { limit: number; offset: number } | undefined,
    ): Promise<SnapshotSummary[]> {
      const environment = await environmentOr404(store, org, env);
      const { range } = orThrow(
        await resolvedOn(environment, (timeline) => resolveInterval(query.interval ?? '', timeline)),
      );
      const snapshots = await store.snapshots.list(
        environment.id,
        range.first,
        range.last,
        query.reverse !== true,
        page,
      );
      const now = nowSeconds();
      return snapshots.map((snapshot) => snapshotSummaryView(snapshot, now));
    },

    /**
     * Snapshots first..last of an environment, newest first, as its history shows them: the fields
     * of each Snapshot that say when, whether compliant, how many artifacts of each compliance and
     * which policies applied, read in one statement without the artifacts.
     */
    async talliesOf(
      org: Org,
      env: string,
      first: number,
      last: number,
    ): Promise<
      Array<Pick<Snapshot, 'index' | 'timestamp' | 'compliant' | 'artifact_compliance_count' | 'applied_policies'>>
    > {
      const environment = await environmentOr404(store, org, env);
      return (await store.snapshotTallies.range(environment.id, first, last)).map((tally) => ({
        index: tally.index,
        timestamp: tally.startedAt,
        compliant: tally.compliant,
        artifact_compliance_count: tally.complianceCount,
        applied_policies: tally.appliedPolicies as Snapshot['applied_policies'],
      }));
    },

    /** The snapshot a snapshot expression names. */
    async snapshotAt(org: Org, env: string, expression: string): Promise<Snapshot> {
      const environment = await environmentOr404(store, org, env);
      const index = await indexOf(org, environment, expression);
      return snapshotView(publicUrl(), org.name, environment, (await snapshotOf(store, environment.id, index))!);
    },

    /** One page of the events of a range of snapshots, newest first unless `reverse`, and how many there are. */
    async eventsOf(
      org: Org,
      env: string,
      query: EventQuery,
      page: { limit: number; offset: number },
    ): Promise<{ events: EnvironmentEvent[]; total: number }> {
      const environment = await environmentOr404(store, org, env);
      for (const repoName of query.repo_name ?? []) await reportedRepoOr404(store, org, repoName);
      const [interval, start, end] = await resolvedOn(environment, (timeline) => [
        resolveInterval(query.interval ?? '', timeline),
        query.start === undefined ? undefined : resolveBound(query.start, timeline),
        query.end === undefined ? undefined : resolveBound(query.end, timeline),
      ]);
      let range = orThrow(interval).range;
      if (start !== undefined) range = intersect(range, { first: orThrow(start).index, last: Infinity });
      if (end !== undefined) range = intersect(range, { first: -Infinity, last: orThrow(end).index });
      const { events, total } = await store.snapshots.events(environment.id, {
        first: range.first,
        last: range.last,
        fromTimestamp: query.start_ts,
        toTimestamp: query.end_ts,
        repoNames: query.repo_name,
        reverse: query.reverse !== true,
        offset: page.offset,
        limit: page.limit,
      });
      return {
        events: events.map((event) => environmentEventView(publicUrl(), org.name, environment.name, event)),
        total,
      };
    },

    /**
     * The environment's audit log as CSV, read batch by batch as it is sent, and its file name. The
     * environment is found first (the short message); then the filter is checked.
     */
    async auditLogOf(
      org: Org,
      env: string,
      filter: AuditLogFilter,
    ): Promise<{ filename: string; chunks: AsyncGenerator<string> }> {
      const environment = await environmentOr404(store, org, env, 'short');
      const unknown = filter.eventTypes?.find((type) => !AUDIT_EVENT_TYPES.includes(type));
      if (unknown !== undefined)
        throw invalid({ 'query.event_types': withInput("Input should be 'started', 'exited' or 'changed'", unknown) });
      if (
        filter.fromTimestamp !== undefined &&
        filter.toTimestamp !== undefined &&
        filter.fromTimestamp > filter.toTimestamp
      ) {
        throw badRequest('from_timestamp must not be later than to_timestamp');
      }
      const chunks = auditLogChunks<number>(async (after) => {
        const batch = await store.snapshots.auditLogBatch(environment.id, filter, after ?? 0, AUDIT_BATCH);
        return { rows: batch.events.map((event) => auditLogRowOf(environment.name, event)), cursor: batch.cursor };
      });
      return { filename: `${environment.name}-auditlog.csv`, chunks };
    },

    /** What runs only in one, in both with other instance counts, and in both alike, of two snapshots (`env[#N]`). */
    async diffOf(org: Org, snappish1: string, snappish2: string): Promise<EnvironmentDiff> {
      const sideOf = async (snappish: string): Promise<DiffSide> => {
        const parts = splitSnappish(snappish);
        if (parts === undefined) throw badRequest(`Bad snappish ${snappish}`);
        const environment = await environmentOr404(store, org, parts.env);
        const index = await indexOf(org, environment, parts.expr);
        const snapshot = (await snapshotOf(store, environment.id, index))!;
        const running = snapshot.artifacts.filter((artifact) => artifact.annotation.now > 0);
        return {
          id: `${environment.name}#${index}`,
          running: new Map(running.map((artifact) => [artifact.fingerprint || artifact.name, artifact])),
        };
      };
      const first = await sideOf(snappish1);
      return environmentDiffView(first, await sideOf(snappish2));
    },
  };
}
