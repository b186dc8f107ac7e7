// Attestations (spec endpoints 1 and 5, reference §2.3): report every type, override, read by
// name, by id, per flow, per artifact, and download evidence.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { attestationKinds } from '../../../../shared/payloads/index.ts';
import { orgOf, principalOf } from '../auth.ts';
import type { RoutePlugin } from '../context.ts';
import type { UrlKind } from '../../services/attest.ts';
import { pageOf, pageQuery } from '../../views/paging.ts';
import { invalid, withInput } from '../../errors.ts';
import type { UploadedFile } from '../../uploads.ts';
import { jsonPart, multipartBody, readMultipart, routeCheckedJsonBody } from '../multipart.ts';
import { sendJsonString } from '../replies.ts';
import { sendDownload } from '../downloads.ts';
import { flowParams, trailParams } from './params.ts';

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

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

/** Reference §8.4: as the client sends it, `commit_list` once per commit. */
const criteriaQuery = {
  type: 'object',
  properties: {
    flow_name: { type: 'string' },
    attestation_type: { type: 'string' },
    attestation_name: { type: 'string' },
    commit_list: { type: 'array', items: { type: 'string' }, maxItems: 1000 },
  },
} as const;

const versionParams = {
  type: 'object',
  required: ['org', 'flow', 'trail', 'name'],
  properties: {
    org: { type: 'string' },
    flow: { type: 'string' },
    trail: { type: 'string' },
    name: { type: 'string' },
  },
} as const;

const artifactParams = {
  type: 'object',
  required: ['org', 'flow', 'fingerprint', 'name'],
  properties: {
    org: { type: 'string' },
    flow: { type: 'string' },
    fingerprint: { type: 'string' },
    name: { type: 'string' },
  },
} as const;

const evidenceParams = {
  type: 'object',
  required: ['org', 'flow', 'trail', 'id'],
  properties: { org: { type: 'string' }, flow: { type: 'string' }, trail: { type: 'string' }, id: { type: 'string' } },
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

export const attestationRoutes: RoutePlugin = (app, { services }, done) => {
  /** Reports an attestation of `kind` in the trail the path names. */
  const attest = async (
    request: FastifyRequest,
    reply: FastifyReply,
    { flow, trail }: { flow: string; trail: string },
    kind: UrlKind,
  ): Promise<FastifyReply> => {
    const org = orgOf(request);
    const { data, attachment } = await reportOf(request, kind);
    await services.attestations.record(org, flow, trail, kind, data, attachment, principalOf(request).name);
    // An override answers 200, every other type 201, as the hosted service does (reference §8.3 item 12).
    return sendJsonString(reply, kind === 'override' ? 200 : 201, 'OK');
  };

  app.post(
    '/attestations/:org/:flow/trail/:trail/override',
    { schema: { params: trailParams, consumes: ['application/json'], body: overrideBody } },
    async (request, reply) => attest(request, reply, request.params, 'override'),
  );

  // One operation per type under its literal path (spec endpoint 1 and its siblings), each with
  // its own body schema; the parameter route below only answers types that do not exist.
  for (const kind of urlKinds) {
    app.post(
      `/attestations/:org/:flow/trail/:trail/${kind}`,
      { schema: { params: trailParams, consumes: ['multipart/form-data'], body: reportBodyOf(kind) } },
      async (request, reply) => attest(request, reply, request.params, kind),
    );
  }

  app.post(
    '/attestations/:org/:flow/trail/:trail/:kind',
    { schema: { params: reportParams, consumes: ['multipart/form-data'], body: reportBodyOf('generic'), hide: true } },
    async (request, reply) => attest(request, reply, request.params, request.params.kind),
  );

  app.get('/attestations/:org/:flow/trail/:trail/:name', { schema: { params: versionParams } }, async (request) => {
    const { flow, trail, name } = request.params;
    return await services.attestations.versionsOf(orgOf(request), flow, trail, name);
  });

  app.get(
    '/attestations/:org/:flow/artifact/:fingerprint/:name',
    { schema: { params: artifactParams } },
    async (request) => {
      const { flow, fingerprint, name } = request.params;
      return await services.attestations.ofArtifact(orgOf(request), flow, fingerprint, name);
    },
  );

  app.get(
    '/attestations/:org/:flow/trail/:trail/attestation/:id/evidence',
    { schema: { params: evidenceParams } },
    async (request, reply) => {
      const { flow, trail, id } = request.params;
      const file = await services.attestations.evidenceOf(orgOf(request), flow, trail, id);
      reply.header('x-content-sha256', file.sha256);
      return sendDownload(reply, {
        type: 'application/octet-stream',
        filename: file.filename,
        content: file.content,
        size: file.size,
      });
    },
  );

  app.get('/attestations/:org/:flow', { schema: { params: flowParams, querystring: flowListQuery } }, async (request) =>
    services.attestations.flowPageOf(
      orgOf(request),
      request.params.flow,
      { from: request.query.from_timestamp, to: request.query.to_timestamp },
      pageOf(request.query),
      request.url,
    ),
  );

  // A literal segment: wins over the flow's list at /attestations/{org}/{flow} (reference §8.4).
  app.get(
    '/attestations/:org/list_attestations_for_criteria',
    { schema: { params: orgParams, querystring: criteriaQuery } },
    async (request) => services.attestations.byCommit(orgOf(request), request.query),
  );

  app.get('/attestations/:org', { schema: { params: orgParams, querystring: orgListQuery } }, async (request) =>
    services.attestations.orgPageOf(orgOf(request), request.query),
  );
  done();
};
