// Attestations (spec endpoints 1 and 5, reference §2.3): report every type, override, read by
// name, by id, per flow, per artifact, and download evidence.
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { attestationKinds } from '../../../../shared/payloads/index.ts';
import { regexProblem } from '../../../../shared/regex/index.ts';
import { orgOf, principalOf } from '../auth.ts';
import type { RouteOptions } from '../context.ts';
import { recordAttestation, type UrlKind } from '../../services/attest.ts';
import { attestationsOf } from '../../views/artifactView.ts';
import { attestationView, flowAttestationRecord } from '../../views/attestationView.ts';
import { pageLinks, pageOf, pageQuery, paginationOf } from '../../views/paging.ts';
import { renderEach } from '../../views/placeholders.ts';
import { ApiError, badRequest, invalid, notFound, withInput } from '../../errors.ts';
import { jsonPart, multipartBody, readMultipart, routeCheckedJsonBody, type UploadedFile } from '../multipart.ts';
import { attestationDeliveries, deliverSoon } from '../../delivery/notifications.ts';
import { sendJsonString } from '../replies.ts';
import { sendDownload } from '../downloads.ts';
import type { Org } from '../../store/orgs.ts';
import { flowOr404, trailOr404, trailPlaceOr404 } from '../../services/lookups.ts';
import { trailParams } from './params.ts';

const urlKinds: readonly UrlKind[] = ['scan', ...attestationKinds.filter((kind) => kind !== 'override')];

const reportParams = {
  type: 'object',
  required: ['org', 'flow', 'trail', 'kind'],
  properties: {
    org: { type: 'string' },
    flow: { type: 'string' },
    trail: { type: 'string' },
    kind: { type: 'string', enum: urlKinds },
  },
} as const;

/**
 * The multipart body of one attestation type: `data_json`, a JSON part (an object property of a
 * multipart body is sent as JSON, OpenAPI 3.1 §4.8.14.4) with that type's schema, and an optional
 * `attachment_file`.
 */
function reportBodyOf(kind: UrlKind) {
  const schema = kind === 'scan' ? 'scan-attestation' : 'attestation';
  return multipartBody(
    `\`data_json\` (the \`${schema}\` schema${kind === 'scan' ? '' : `, with the fields of a ${kind} attestation`}) and an optional \`attachment_file\` of at most 10 MB.`,
    {
      data_json: { $ref: `https://compliance-evidence.dev/schemas/${schema}/v1` },
      attachment_file: { type: 'string', format: 'binary' },
    },
    ['data_json'],
  );
}

const overrideBody = routeCheckedJsonBody(
  'The attestation (the `attestation` schema) with `reason`, `new_compliance_status` and `original_attestation_type`, as a JSON body.',
  { $ref: 'https://compliance-evidence.dev/schemas/attestation/v1' },
);

const flowListQuery = {
  type: 'object',
  properties: { ...pageQuery, from_timestamp: { type: 'number' }, to_timestamp: { type: 'number' } },
} as const;

const orgListQuery = {
  type: 'object',
  properties: {
    attestation_id: { type: 'string' },
    after: { type: 'string' },
    per_page: { type: 'integer', minimum: 1, maximum: 100 },
    name: { type: 'string' },
    name_regex: { type: 'string' },
    flow: { type: 'string' },
    type: { type: 'string' },
    is_compliant: { type: 'boolean' },
    from_timestamp: { type: 'number' },
    to_timestamp: { type: 'number' },
  },
} as const;

/**
 * What a request reports, in the one body format its operation declares (reference §2.3): an
 * override is a JSON body, every other type multipart `data_json` plus an optional
 * `attachment_file`. A body in the other format is refused as the hosted service refuses it.
 */
async function reportOf(
  request: FastifyRequest,
  kind: UrlKind,
): Promise<{ data: unknown; attachment: UploadedFile | undefined }> {
  if (kind === 'override') {
    if (request.isMultipart()) throw invalid({ body: withInput('Input should be a valid dictionary', undefined) });
    return { data: request.body, attachment: undefined };
  }
  const body = await readMultipart(request, 'data_json');
  return { data: jsonPart(body, 'data_json'), attachment: body.files.get('attachment_file') };
}

export const attestationRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  const attest =
    (kind: (request: FastifyRequest) => UrlKind) =>
    async (
      request: FastifyRequest<{ Params: { org: string; flow: string; trail: string } }>,
      reply: import('fastify').FastifyReply,
    ) => {
      const org = orgOf(request);
      const { data, attachment } = await reportOf(request, kind(request));
      const { flow: flowName, trail: trailName } = request.params;
      const { deliveries } = await recordAttestation(store, {
        org,
        flowName,
        trailName,
        kind: kind(request),
        data,
        attachment,
        reportedBy: principalOf(request).name,
        resolve: () => trailPlaceOr404(store, org, flowName, trailName, 'ON_ATTESTATION'),
        deliveries: (attestation, triggered) => attestationDeliveries(context, org, triggered, attestation),
      });
      deliverSoon(context, deliveries);
      return sendJsonString(reply, 201, 'OK');
    };

  app.post<{ Params: { org: string; flow: string; trail: string } }>(
    '/attestations/:org/:flow/trail/:trail/override',
    { schema: { params: trailParams, consumes: ['application/json'], body: overrideBody } },
    attest(() => 'override'),
  );

  // One operation per type under its literal path (spec endpoint 1 and its siblings), each with
  // its own body schema; the parameter route below only answers types that do not exist.
  for (const kind of urlKinds) {
    app.post<{ Params: { org: string; flow: string; trail: string } }>(
      `/attestations/:org/:flow/trail/:trail/${kind}`,
      { schema: { params: trailParams, consumes: ['multipart/form-data'], body: reportBodyOf(kind) } },
      attest(() => kind),
    );
  }

  app.post<{ Params: { org: string; flow: string; trail: string; kind: UrlKind } }>(
    '/attestations/:org/:flow/trail/:trail/:kind',
    { schema: { params: reportParams, consumes: ['multipart/form-data'], body: reportBodyOf('generic'), hide: true } },
    attest((request) => (request.params as { kind: UrlKind }).kind),
  );

  app.get<{ Params: { org: string; flow: string; trail: string; name: string } }>(
    '/attestations/:org/:flow/trail/:trail/:name',
    async (request) => {
      const org = orgOf(request);
      const flow = await flowOr404(store, org, request.params.flow);
      const trail = await trailOr404(store, org, flow, request.params.trail);
      const host = context.publicUrl();
      return (await store.attestations.versions(trail.id, request.params.name)).map((attestation) =>
        attestationView(host, org.name, attestation),
      );
    },
  );

  app.get<{ Params: { org: string; flow: string; fingerprint: string; name: string } }>(
    '/attestations/:org/:flow/artifact/:fingerprint/:name',
    async (request) => {
      const org = orgOf(request);
      const flow = await flowOr404(store, org, request.params.flow);
      const artifacts = (await store.artifacts.byFingerprintPrefix(org.id, request.params.fingerprint, flow.id)).filter(
        (artifact) => artifact.fingerprint === request.params.fingerprint,
      );
      const host = context.publicUrl();
      const seen = new Set<string>();
      const views = [];
      for (const artifact of artifacts) {
        for (const attestation of attestationsOf(artifact, await store.attestations.inTrail(artifact.trailId))) {
          if (attestation.name !== request.params.name || seen.has(attestation.id)) continue;
          seen.add(attestation.id);
          views.push(attestation);
        }
      }
      return views
        .sort((a, b) => b.createdAt - a.createdAt)
        .map((attestation) => attestationView(host, org.name, attestation));
    },
  );

  app.get<{ Params: { org: string; flow: string; trail: string; id: string } }>(
    '/attestations/:org/:flow/trail/:trail/attestation/:id/evidence',
    async (request, reply) => {
      const org = orgOf(request);
      const flow = await flowOr404(store, org, request.params.flow);
      const trail = await trailOr404(store, org, flow, request.params.trail);
      const attestation = await store.attestations.byId(org.id, request.params.id);
      if (attestation === undefined || attestation.trailId !== trail.id)
        throw notFound(`Attestation '${request.params.id}' does not exist in trail '${trail.name}'`);
      if (attestation.evidence === null) throw notFound(`Attestation '${request.params.id}' has no evidence`);
      const file = await store.evidence.open(attestation.evidence.sha256);
      if (file === undefined) {
        throw new ApiError(
          404,
          `The evidence file of attestation '${request.params.id}' is missing from the server's evidence directory (sha256 ${attestation.evidence.sha256}): restore it from a backup of that directory`,
        );
      }
      reply.header('x-content-sha256', attestation.evidence.sha256);
      return sendDownload(reply, {
        type: 'application/octet-stream',
        filename: attestation.evidence.filename,
        content: file.content,
        size: file.size,
      });
    },
  );

  app.get<{
    Params: { org: string; flow: string };
    Querystring: { page?: number; per_page?: number; from_timestamp?: number; to_timestamp?: number };
  }>('/attestations/:org/:flow', { schema: { querystring: flowListQuery } }, async (request) => {
    const org = orgOf(request);
    const flow = await store.flows.byName(org.id, request.params.flow);
    if (flow === undefined) throw notFound('Flow not found');
    const { page, perPage, offset } = pageOf(request.query);
    const window = { from: request.query.from_timestamp, to: request.query.to_timestamp };
    const { total, attestations } = await store.attestations.pageOfFlow(flow.id, window, perPage, offset);
    const host = context.publicUrl();
    const pagination = paginationOf(total, page, perPage);
    return {
      data: await renderEach(
        attestations,
        (attestation) => attestation.id,
        (attestation) => flowAttestationRecord(host, org.name, attestation),
      ),
      _links: pageLinks(host, request.url, pagination),
      pagination,
    };
  });

  app.get<{
    Params: { org: string };
    Querystring: {
      attestation_id?: string;
      after?: string;
      per_page?: number;
      name?: string;
      name_regex?: string;
      flow?: string;
      type?: string;
      is_compliant?: boolean;
      from_timestamp?: number;
      to_timestamp?: number;
    };
  }>('/attestations/:org', { schema: { querystring: orgListQuery } }, async (request) => {
    const org: Org = orgOf(request);
    const query = request.query;
    const regexRefused = query.name_regex === undefined ? undefined : regexProblem(query.name_regex);
    if (regexRefused !== undefined)
      throw badRequest(
        regexRefused.unsupported
          ? `Unsupported name_regex: '${query.name_regex}': ${regexRefused.detail}`
          : `Invalid name_regex: '${query.name_regex}'`,
      );
    const flowId = query.flow === undefined ? undefined : (await flowOr404(store, org, query.flow)).id;
    const perPage = query.per_page ?? 20;
    const matches = await store.attestations.query(
      org.id,
      {
        id: query.attestation_id,
        name: query.name,
        nameRegex: query.name_regex,
        flowId,
        type: query.type,
        isCompliant: query.is_compliant,
        from: query.from_timestamp,
        to: query.to_timestamp,
        afterId: query.after,
      },
      perPage + 1,
    );
    const page = matches.slice(0, perPage);
    const host = context.publicUrl();
    const base = `${host}/api/v2/attestations/${encodeURIComponent(org.name)}`;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query))
      if (value !== undefined && key !== 'after') params.set(key, String(value));
    const links: Record<string, { href: string }> = { self: { href: `${base}?${params.toString()}` } };
    if (matches.length > perPage) {
      params.set('after', page[page.length - 1].id);
      links.next = { href: `${base}?${params.toString()}` };
    }
    return { data: page.map((attestation) => attestationView(host, org.name, attestation)), _links: links };
  });
  done();
};
