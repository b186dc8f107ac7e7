// Every operation of the API (spec "Endpoints", reference §2) with the schema of each answer it
// gives. The server attaches these to its routes (and so to its OpenAPI document), the API tests
// check every answer they receive against them, and the extension's client types derive from them.
// Paths are relative to /api/v2, with `{param}` placeholders as in the OpenAPI document.
import { reportTypes } from '../reports/check.ts';
import { accounts } from './accountsOperations.ts';
import { catalogue } from './catalogueOperations.ts';
import {
  allowlistEntry,
  environment,
  environmentDiff,
  environmentEvent,
  snapshot,
  snapshotSummary,
} from './environments.ts';
import { artifact, assertResult, latestCommit, searchResult } from './artifacts.ts';
import { errorBody } from './errors.ts';
import { attestation, flow, flowAttestationRecord, trail } from './flows.ts';
import { action, control, controlDecision, customType, policy, systemType } from './governance.ts';
import { dataPage, namedPage, orPlaceholder } from './pagination.ts';
import { policyDryRun, templateImpact } from './preview.ts';
import { anyObject, messageString, string } from './values.ts';

/** A response schema per status; `content` entries describe bodies that are not JSON. */
export type Responses = Record<string, object>;

export interface Operation {
  summary: string;
  responses: Responses;
  /** The body may be left out altogether (every field of it is optional). */
  optionalBody?: boolean;
  /** Kept for old clients only; documented as deprecated. */
  deprecated?: boolean;
  /** The project's own addition to the API v2 (not in the hosted service); documented as such. */
  extension?: boolean;
  /** The hosted answer's shape is not known: built from the request and the spec's resources (`x-shape: inferred`). */
  inferred?: boolean;
}

const listOf = (item: object) => ({ type: 'array', items: item }) as const;
/** `{message}` success bodies (deletes, artifact reports). */
export const messageObject = {
  type: 'object',
  properties: { message: string },
  required: ['message'],
  additionalProperties: false,
} as const;
const binary = (type: string) => ({
  description: 'The file itself.',
  content: { [type]: { schema: { type: 'string', format: 'binary' } } },
});
/** Created (201) or updated (200): reference §1.3. */
const upserted = (schema: object) => ({ 200: schema, 201: schema });

/** Spec endpoint 1 (scan) and every other attestation type, each under its literal path. */
const attestOperations = Object.fromEntries(
  ['scan', 'generic', 'junit', 'snyk', 'jira', 'pull_request', 'custom', 'system'].map((kind) => [
    `POST /attestations/{org}/{flow}/trail/{trail}/${kind}`,
    {
      summary: kind === 'scan' ? 'Attest a scan result (spec endpoint 1)' : `Attest a ${kind} result`,
      responses: { 201: messageString },
    },
  ]),
) as Record<string, Operation>;

/** Spec endpoint 2 (K8S) and every other report type, each under its literal path. */
const reportOperations = Object.fromEntries(
  reportTypes.map((type) => [
    `PUT /environments/{org}/{env}/report/${type}`,
    {
      summary:
        type === 'K8S'
          ? 'Report an environment of type K8S (spec endpoint 2)'
          : `Report an environment of type ${type}`,
      responses: upserted(messageString),
    },
  ]),
) as Record<string, Operation>;

const operationList = {
  ...accounts,
  ...catalogue,
  ...reportOperations,

  'PUT /flows/{org}/template_file': {
    summary: 'Create or update a flow with a template (spec endpoint 3)',
    responses: upserted(messageString),
  },
  'PUT /flows/{org}': { summary: 'Create or update a flow (legacy JSON form)', responses: upserted(messageString) },
  'GET /flows/{org}': {
    summary: 'List flows',
    responses: { 200: { anyOf: [listOf(orPlaceholder(flow)), dataPage(orPlaceholder(flow))] } },
  },
  'GET /flows/{org}/{flow}': { summary: 'Get a flow', responses: { 200: flow } },
  'PUT /flows/{org}/{flow}/archive': { summary: 'Archive a flow', responses: { 200: messageString } },
  'PUT /flows/{org}/{flow}/rename': { summary: 'Rename a flow', responses: { 200: messageString } },

  'PUT /trails/{org}/{flow}': { summary: 'Begin or update a trail', responses: upserted(messageString) },
  'GET /trails/{org}/{flow}': {
    summary: 'List trails of a flow (spec endpoint 4)',
    responses: { 200: { anyOf: [listOf(orPlaceholder(trail)), dataPage(orPlaceholder(trail))] } },
  },
  'GET /trails/{org}/{flow}/{trail}': { summary: 'Get a trail', responses: { 200: trail } },
  'GET /trails/{org}/{flow}/{trail}/audit_package': {
    summary: "Download a trail's audit package: trail.json, attestations.json and every evidence file, as .tgz",
    responses: { 200: binary('application/gzip') },
  },
  'GET /trails/{org}/{flow}/{trail}/audit_pdf': {
    summary: "Download a trail's audit report as PDF",
    responses: { 200: binary('application/pdf') },
  },
  'GET /trails/{org}': {
    summary: 'List trails of an organization',
    responses: { 200: { anyOf: [listOf(orPlaceholder(trail)), dataPage(orPlaceholder(trail))] } },
  },

  'POST /attestations/{org}/{flow}/trail/{trail}/override': {
    summary: 'Override an attestation',
    // 200, not the 201 of every other attestation: what the hosted service answers (reference §8.3 item 12).
    responses: { 200: messageString },
  },
  ...attestOperations,
  'POST /attestations/{org}/{flow}/trail/{trail}/{kind}': {
    summary: 'An attestation type that does not exist (400)',
    responses: {},
  },
  'GET /attestations/{org}/{flow}/trail/{trail}/{name}': {
    summary: "A trail's attestations of one name",
    responses: { 200: listOf(attestation) },
  },
  'GET /attestations/{org}/{flow}/artifact/{fingerprint}/{name}': {
    summary: "An artifact's attestations of one name",
    responses: { 200: listOf(attestation) },
  },
  'GET /attestations/{org}/{flow}/trail/{trail}/attestation/{id}/evidence': {
    summary: "Download an attestation's evidence file",
    responses: { 200: binary('application/octet-stream') },
  },
  'GET /attestations/{org}/{flow}': {
    summary: 'List attestations of a flow (spec endpoint 5)',
    responses: { 200: dataPage(orPlaceholder(flowAttestationRecord)) },
  },
  'GET /attestations/{org}': {
    summary: 'Find attestations in an organization',
    responses: { 200: dataPage(attestation) },
  },

  'PUT /environments/{org}': { summary: 'Create or update an environment', responses: upserted(messageString) },
  'GET /environments/{org}': {
    summary: 'List environments',
    responses: {
      200: { anyOf: [listOf(orPlaceholder(environment)), namedPage('environments', orPlaceholder(environment))] },
    },
  },
  'GET /environments/{org}/{env}': { summary: 'Get an environment', responses: { 200: environment } },
  'PATCH /environments/{org}/{env}': { summary: 'Update an environment', responses: { 200: messageString } },
  'PUT /environments/{org}/{env}/archive': { summary: 'Archive an environment', responses: { 200: messageString } },
  'PUT /environments/{org}/{env}/rename': { summary: 'Rename an environment', responses: { 200: messageString } },
  'PUT /environments/{org}/{env}/join': {
    summary: 'Set the environments a logical environment joins',
    responses: { 200: messageString },
  },
  'POST /environments/{org}/{env}/policies': {
    summary: 'Attach policies to an environment',
    responses: { 200: messageString },
  },
  'DELETE /environments/{org}/{env}/policies': {
    summary: 'Detach policies from an environment',
    responses: { 200: messageString },
  },
  'PUT /allowlists/{org}/{env}': { summary: 'Allow an artifact in an environment', responses: upserted(messageString) },
  'GET /allowlists/{org}': { summary: 'List allowlisted artifacts', responses: { 200: listOf(allowlistEntry) } },
  'PATCH /tags/{org}/{resource_type}/{id}': { summary: 'Set and remove tags', responses: { 200: messageString } },
  'PATCH /tags/{org}/{resource_type}/*': {
    summary: 'Set and remove tags of a repo whose name has slashes, raw in the path',
    responses: { 200: messageString },
  },
  'PUT /environments/{org}/{env}/report/{type}': { summary: 'A report type that does not exist (400)', responses: {} },
  'GET /snapshots/{org}/{env}': {
    summary: "List an environment's snapshots",
    responses: { 200: listOf(snapshotSummary) },
  },
  'GET /snapshots/{org}/{env}/{expr}': { summary: 'Get a snapshot by expression', responses: { 200: snapshot } },
  'GET /environments/{org}/{env}/events': {
    summary: "An environment's events",
    responses: { 200: listOf(environmentEvent) },
  },
  'GET /environments/{org}/{env}/auditlog': {
    summary: "Download an environment's audit log (spec endpoint 12)",
    responses: { 200: binary('text/csv') },
  },
  'GET /env-diff/{org}': { summary: 'Compare two snapshots', responses: { 200: environmentDiff } },

  'PUT /policies/{org}': { summary: 'Create a policy or a new version of it', responses: upserted(messageString) },
  'GET /policies/{org}': { summary: 'List policies', responses: { 200: listOf(orPlaceholder(policy)) } },
  'GET /policies/{org}/{name}': { summary: 'Get a policy (spec endpoint 11)', responses: { 200: policy } },
  'PUT /policies/{org}/{name}/archive': {
    summary: 'Archive a policy: it leaves lists and evaluation, its name is free',
    responses: { 200: messageString },
  },
  'PUT /policies/{org}/{name}/unarchive': {
    summary: 'Unarchive the last policy archived under a name',
    responses: { 200: messageString },
  },
  'GET /asserts/{org}/fingerprint/{fingerprint}': { summary: 'Assert an artifact', responses: { 200: assertResult } },

  'POST /controls/{org}': { summary: 'Create a control', responses: { 201: control } },
  'GET /controls/{org}': {
    summary: 'List controls',
    responses: { 200: namedPage('controls', orPlaceholder(control)) },
  },
  'GET /controls/{org}/{identifier}': { summary: 'Get a control', responses: { 200: control } },
  'PUT /controls/{org}/{identifier}': { summary: 'Update a control', responses: { 200: control } },
  'POST /controls/{org}/{identifier}/archive': {
    summary: 'Archive a control (spec endpoint 8)',
    responses: { 200: control },
  },
  'POST /controls/{org}/{identifier}/unarchive': { summary: 'Unarchive a control', responses: { 200: control } },
  'GET /controls/{org}/{identifier}/decisions/{decision_id}': {
    summary: 'Get a control decision (spec endpoint 7)',
    responses: { 200: controlDecision },
  },

  'PUT /actions/{org}': { summary: 'Create or update an action', responses: upserted(action) },
  'GET /actions/{org}': {
    summary: 'List actions (spec endpoint 9)',
    responses: { 200: listOf(orPlaceholder(action)) },
  },
  'PUT /actions/{org}/environments': { summary: 'Create or update an environment action', responses: upserted(action) },
  'PUT /actions/{org}/flows': { summary: 'Create or update a flow action', responses: upserted(action) },
  'GET /actions/{org}/{number}': { summary: 'Get an action', responses: { 200: action } },
  'DELETE /actions/{org}/{number}': { summary: 'Delete an action', responses: { 200: messageString } },
  'GET /organizations/{org}/environments_notifications': {
    summary: 'Legacy: list environment actions (reference §2.12)',
    responses: { 200: listOf(orPlaceholder(action)) },
    deprecated: true,
  },
  'PUT /organizations/{org}/environments_notifications': {
    summary: 'Legacy: create or update an environment action',
    responses: upserted(action),
    deprecated: true,
  },
  'GET /organizations/{org}/environments_notifications/{number}': {
    summary: 'Legacy: get an environment action',
    responses: { 200: action },
    deprecated: true,
  },
  'DELETE /organizations/{org}/environments_notifications/{number}': {
    summary: 'Legacy: delete an environment action',
    responses: { 200: messageString },
    deprecated: true,
  },

  'POST /artifacts/{org}/{flow}': { summary: 'Report an artifact', responses: upserted(messageObject) },
  'GET /artifacts/{org}/{flow}/fingerprint/{fingerprint}': {
    summary: 'Get an artifact by fingerprint',
    responses: { 200: artifact },
  },
  'GET /artifacts/{org}/{flow}/commit_sha/{sha}': {
    summary: 'Artifacts built from a commit',
    responses: { 200: listOf(artifact) },
  },
  'GET /artifacts/{org}/{flow}/{fingerprint}/latest_commit': {
    summary: "An artifact's latest commit",
    responses: { 200: latestCommit },
  },
  'GET /artifacts/{org}': {
    summary: 'List artifacts (spec endpoint 6)',
    responses: { 200: listOf(orPlaceholder(artifact)) },
  },
  'GET /search/{org}/sha/{value}': {
    summary: 'Search artifacts by SHA or fingerprint (spec endpoint 10)',
    responses: { 200: searchResult },
  },

  'POST /custom-attestation-types/{org}': {
    summary: 'Create a custom attestation type or a new version',
    responses: upserted(customType),
  },
  'GET /custom-attestation-types/{org}': {
    summary: 'List custom attestation types',
    responses: { 200: listOf(orPlaceholder(customType)) },
  },
  'GET /custom-attestation-types/{org}/{name}': {
    summary: 'Get a custom attestation type',
    responses: { 200: customType },
  },
  'PUT /custom-attestation-types/{org}/{name}/archive': {
    summary: 'Archive a custom attestation type',
    responses: { 200: messageString },
  },
  'GET /system-attestation-types/{org}': {
    summary: 'List the system attestation types (reference §2.18)',
    responses: { 200: listOf(systemType) },
  },

  'POST /flows/{org}/{flow}/template-impact': {
    summary: "Project extension: what a flow template text would do to the flow's trails (read-only, nothing stored)",
    responses: { 200: templateImpact },
    extension: true,
  },
  'POST /environments/{org}/{env}/policy-dry-run': {
    summary:
      "Project extension: what a policy text would say about the environment's latest snapshot (read-only, nothing stored)",
    responses: { 200: policyDryRun },
    extension: true,
  },

  'GET /openapi.json': { summary: 'This OpenAPI document', responses: { 200: anyObject } },
  'GET /schemas': { summary: 'Names of the published JSON Schemas', responses: { 200: listOf(string) } },
  'GET /schemas/*': {
    summary: 'A published JSON Schema',
    responses: { 200: { content: { 'application/schema+json': { schema: anyObject } } } },
  },
} satisfies Record<string, Operation>;

export type OperationKey = keyof typeof operationList;
export const operations: Record<OperationKey, Operation> & Record<string, Operation | undefined> = operationList;

/** Every operation answers errors with the spec's error body. */
export const errorResponses = { '4xx': errorBody, '5xx': errorBody } as const;

/** The operation key of a fastify route (`/api/v2/flows/:org` → `GET /flows/{org}`), or undefined outside /api/v2. */
export function operationKeyOf(method: string, fastifyUrl: string): string | undefined {
  if (!fastifyUrl.startsWith('/api/v2/')) return undefined;
  return `${method} ${fastifyUrl.slice('/api/v2'.length).replace(/:([A-Za-z_]+)/g, '{$1}')}`;
}
