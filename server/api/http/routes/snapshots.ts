// Snapshots (reference §2.7, §5.5), environment events (§5.6), the snapshot diff (§5.7) and the
// audit log (spec endpoint 12).
import { Readable } from 'node:stream';
import { orgOf } from '../auth.ts';
import { sendDownload } from '../downloads.ts';
import type { RoutePlugin } from '../context.ts';
import { pageOf, pageQueryOf } from '../../views/paging.ts';
import { envParams } from './params.ts';
import { EMPTY_KEPT } from '../emptyQueryValues.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

const snapshotParams = {
  ...envParams,
  required: ['org', 'env', 'expr'],
  properties: { ...envParams.properties, expr: { type: 'string' } },
} as const;

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
    // An empty bound is answered 400 "Invalid interval value: " (reference §2.5), not ignored.
    start: { type: 'string', [EMPTY_KEPT]: true },
    end: { type: 'string', [EMPTY_KEPT]: true },
    start_ts: { type: 'number' },
    end_ts: { type: 'number' },
  },
} as const;

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

const diffQuery = {
  type: 'object',
  // An empty snapshot reference is answered 400 "Bad snappish " (reference §1.2), not ignored.
  properties: { snappish1: { type: 'string', [EMPTY_KEPT]: true }, snappish2: { type: 'string', [EMPTY_KEPT]: true } },
} as const;

/** The items of a comma-separated list, blanks dropped; undefined for none. */
function commaList(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length === 0 ? undefined : items;
}

export const snapshotRoutes: RoutePlugin = (app, { services }, done) => {
  const { snapshots } = services;

  app.get('/snapshots/:org/:env', { schema: { params: envParams, querystring: listQuery } }, async (request) => {
    // Newest first, as clients list them; `reverse` lists oldest first.
    const { perPage, offset, requested } = pageOf(request.query, 15);
    return await snapshots.summariesOf(
      orgOf(request),
      request.params.env,
      request.query,
      requested ? { limit: perPage, offset } : undefined,
    );
  });

  app.get(
    '/snapshots/:org/:env/:expr',
    { schema: { params: snapshotParams } },
    async (request) => await snapshots.snapshotAt(orgOf(request), request.params.env, request.params.expr),
  );

  app.get(
    '/environments/:org/:env/events',
    { schema: { params: envParams, querystring: eventsQuery } },
    async (request, reply) => {
      const { page, perPage, offset } = pageOf(request.query, 100);
      const { events, total } = await snapshots.eventsOf(orgOf(request), request.params.env, request.query, {
        limit: perPage,
        offset,
      });
      reply.header('x-total-count', String(total));
      reply.header('x-total-pages', String(Math.ceil(total / perPage)));
      reply.header('x-page', String(page));
      reply.header('x-per-page', String(perPage));
      return events;
    },
  );

  app.get(
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
      const query = request.query;
      const { filename, chunks } = await snapshots.auditLogOf(orgOf(request), request.params.env, {
        fromTimestamp: query.from_timestamp,
        toTimestamp: query.to_timestamp,
        eventTypes: commaList(query.event_types),
        flowNames: commaList(query.flow_names),
        repoNames: commaList(query.repo_names),
      });
      return sendDownload(reply, {
        type: 'text/csv; charset=utf-8',
        filename,
        content: Readable.from(chunks, { objectMode: false }),
      });
    },
  );

  app.get(
    '/env-diff/:org',
    { schema: { params: orgParams, querystring: diffQuery } },
    async (request) =>
      await snapshots.diffOf(orgOf(request), request.query.snappish1 ?? '', request.query.snappish2 ?? ''),
  );
  done();
};
