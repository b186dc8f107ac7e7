// Answers of hosted operations this server came to serve late (reference §8.4): attestations by
// commit, the tag and filter options of lists, the organization, control versions, decisions and
// coverage. Where the hosted answer's shape is not known, the operation says so (`inferred`, shown
// as `x-shape: inferred` in openapi.json) and the shape is built from its request and the spec's
// resources.
import { boolean, number, string, stringList } from './values.ts';

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
