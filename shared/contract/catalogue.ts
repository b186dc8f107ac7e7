// Answers of hosted operations this server came to serve late (reference §8.4): attestations by
// commit, the tag and filter options of lists, the organization, control versions, decisions and
// coverage. Where the hosted answer's shape is not known, the operation says so (`inferred`, shown
// as `x-shape: inferred` in openapi.json) and the shape is built from its request and the spec's
// resources.
import { controlDecision } from './governance.ts';
import { anyObject, boolean, integer, number, string, stringList } from './values.ts';

/** One attestation of a commit, as `GET /attestations/{org}/list_attestations_for_criteria` lists it. */
export const criteriaAttestation = {
  title: 'CriteriaAttestation',
  type: 'object',
  properties: {
    attestation_id: string,
    attestation_name: string,
    attestation_type: string,
    is_compliant: boolean,
    artifact_fingerprint: { ...string, description: 'Left out when the attestation names no artifact.' },
    target_artifact: { ...string, description: 'The template slot, left out when the attestation names none.' },
    created_at: number,
    flow_name: string,
    trail_name: string,
  },
  required: [
    'attestation_id',
    'attestation_name',
    'attestation_type',
    'is_compliant',
    'created_at',
    'flow_name',
    'trail_name',
  ],
  additionalProperties: false,
} as const;

/** The commits asked about, each with its attestations, oldest first (the key is the commit's sha). */
export const attestationsByCommit = {
  title: 'AttestationsByCommit',
  type: 'object',
  additionalProperties: { type: 'array', items: criteriaAttestation },
} as const;

/** Every tag key in use, with the values it has, each sorted. */
export const tagOptions = {
  title: 'TagOptions',
  type: 'object',
  additionalProperties: stringList,
} as const;

/** What the repo list can be filtered by: names, providers and tags in use. */
export const repoFilterOptions = {
  title: 'RepoFilterOptions',
  type: 'object',
  properties: { names: stringList, providers: stringList, tags: tagOptions },
  required: ['names', 'providers', 'tags'],
  additionalProperties: false,
} as const;

/** A control as one of its versions read. */
export const controlVersion = {
  title: 'ControlVersion',
  type: 'object',
  properties: {
    identifier: string,
    version: integer,
    name: string,
    description: string,
    links: anyObject,
    created_by: string,
    created_at: number,
  },
  required: ['identifier', 'version', 'name', 'description', 'links', 'created_by', 'created_at'],
  additionalProperties: false,
} as const;

/** A decision in a control's list: the decision with its id (the attestation's). */
export const listedDecision = {
  ...controlDecision,
  title: 'ListedControlDecision',
  properties: { ...controlDecision.properties, decision_id: string },
  required: [...controlDecision.required, 'decision_id'],
} as const;

const coverageCounts = {
  running: { ...integer, description: 'Artifacts running under a policy that asks for a decision on the control.' },
  covered: { ...integer, description: 'Of those, the ones whose decision the policy accepts.' },
  not_covered: integer,
} as const;

/** Where a control is asked for (policies, environments) and how the running artifacts stand. */
export const controlCoverage = {
  title: 'ControlCoverage',
  type: 'object',
  properties: {
    identifier: string,
    policies: stringList,
    environments: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          environment_name: string,
          policies: stringList,
          snapshot_index: { type: ['integer', 'null'] },
          ...coverageCounts,
        },
        required: ['environment_name', 'policies', 'snapshot_index', 'running', 'covered', 'not_covered'],
        additionalProperties: false,
      },
    },
    ...coverageCounts,
  },
  required: ['identifier', 'policies', 'environments', 'running', 'covered', 'not_covered'],
  additionalProperties: false,
} as const;

export const organization = {
  title: 'Organization',
  type: 'object',
  properties: {
    name: string,
    display_name: string,
    created_at: number,
    features: {
      type: 'object',
      properties: { controls: boolean },
      required: ['controls'],
      additionalProperties: false,
    },
    html_url: { ...string, description: "The org's flows page." },
  },
  required: ['name', 'display_name', 'created_at', 'features', 'html_url'],
  additionalProperties: false,
} as const;
