// Artifacts, search and assert (spec "Artifact", "Search result"; reference §2.4, §2.8, §2.10).
import {
  anyObject,
  anyValue,
  boolean,
  fingerprint,
  integer,
  nullableString,
  number,
  string,
  stringList,
} from './values.ts';
import { nullableGitCommitInfo } from './flows.ts';

/** Where an artifact runs or ran: the environment and the snapshot that saw it. */
const placement = {
  type: 'object',
  properties: { environment_name: string, snapshot_index: integer },
  required: ['environment_name', 'snapshot_index'],
  additionalProperties: false,
} as const;

const historyEntry = {
  type: 'object',
  properties: { event: string, timestamp: number },
  required: ['event', 'timestamp'],
  additionalProperties: false,
} as const;

export const artifact = {
  title: 'Artifact',
  type: 'object',
  properties: {
    id: string,
    fingerprint,
    filename: string,
    flow_name: string,
    trail_name: string,
    template_reference_name: string,
    created_at: { type: 'string', description: 'Epoch seconds, as a string (spec).' },
    last_modified_at: string,
    git_commit: { ...string, description: 'The commit SHA the artifact was built from; "" when none was reported.' },
    git_commit_info: nullableGitCommitInfo,
    repo_info: { type: ['object', 'null'] },
    commit_url: { ...string, description: '"" when none was reported.' },
    build_url: { ...string, description: '"" when none was reported.' },
    repo_url: nullableString,
    html_url: string,
    api_url: string,
    user_data: anyValue,
    external_urls: anyObject,
    annotations: anyObject,
    evidence: {
      type: 'object',
      properties: {
        attestations: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              attestation_id: string,
              attestation_name: string,
              is_compliant: { type: ['boolean', 'null'] },
            },
          },
        },
      },
    },
    state: { type: 'string', enum: ['COMPLIANT', 'NON-COMPLIANT', 'INCOMPLETE'] },
    running: { type: 'array', items: placement },
    exited: { type: 'array', items: placement },
    history: { type: 'array', items: historyEntry },
  },
  // Clients read every field named in reference §1.11 with strict types: each is always there.
  required: [
    'id',
    'fingerprint',
    'filename',
    'flow_name',
    'trail_name',
    'template_reference_name',
    'created_at',
    'git_commit',
    'commit_url',
    'build_url',
    'html_url',
    'api_url',
    'state',
    'running',
    'exited',
    'history',
  ],
  additionalProperties: false,
} as const;

const matches = (type: string) =>
  ({
    type: 'object',
    properties: { type: { const: type }, count: integer, matches: stringList },
    required: ['type', 'count', 'matches'],
    additionalProperties: false,
  }) as const;

export const searchArtifact = {
  type: 'object',
  properties: {
    fingerprint,
    name: string,
    has_provenance: boolean,
    git_commit: nullableString,
    pipeline: nullableString,
    flow: string,
    trail: string,
    template_reference_name: string,
    build_url: nullableString,
    commit_url: nullableString,
    compliance_state: string,
    running_in: stringList,
    exited_from: stringList,
    html_url: string,
    api_url: string,
    history: { type: 'array', items: historyEntry },
  },
  required: ['fingerprint', 'name', 'flow', 'trail', 'compliance_state', 'running_in', 'exited_from', 'html_url'],
  additionalProperties: false,
} as const;

export const searchResult = {
  title: 'SearchResult',
  type: 'object',
  properties: {
    resolved_to: {
      type: 'object',
      properties: {
        type: string,
        full_match: string,
        fingerprints: matches('fingerprint'),
        commits: matches('commit'),
      },
      required: ['type', 'fingerprints', 'commits'],
      additionalProperties: false,
    },
    artifacts: {
      type: 'array',
      items: searchArtifact,
    },
  },
  required: ['resolved_to', 'artifacts'],
  additionalProperties: false,
} as const;

/** A policy's verdict on one artifact (reference §4.4), shared by snapshots and assert. */
export const policyDecision = {
  type: 'object',
  properties: {
    policy_name: string,
    policy_version: integer,
    status: string,
    rule_evaluations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          rule: { type: 'object', properties: { type: string, definition: anyObject }, required: ['type'] },
          satisfied: boolean,
          ignored: boolean,
          resolutions: {
            type: 'array',
            items: { type: 'object', properties: { type: string, context: anyObject }, required: ['type'] },
          },
          error: {
            ...string,
            description: 'Why the rule could not be evaluated: one of its conditions is not a valid expression.',
          },
        },
        required: ['rule', 'satisfied'],
      },
    },
  },
  required: ['policy_name', 'policy_version', 'status', 'rule_evaluations'],
} as const;

export const assertResult = {
  title: 'AssertResult',
  type: 'object',
  properties: {
    scope: string,
    compliant: boolean,
    environment: string,
    policy_evaluations: { type: 'array', items: policyDecision },
    flows: {
      type: 'array',
      items: {
        type: 'object',
        properties: { flow: string, trail: string, compliance_status: anyObject },
        required: ['flow', 'trail', 'compliance_status'],
        additionalProperties: false,
      },
    },
    html_url: { ...string, description: 'The artifact in the first flow.' },
  },
  // Clients require these always, and environment and policy_evaluations in the scopes that judge
  // by policies (reference §1.11, §2.10).
  required: ['scope', 'compliant', 'flows', 'html_url'],
  allOf: [
    {
      if: { properties: { scope: { const: 'environment' } }, required: ['scope'] },
      then: { required: ['environment', 'policy_evaluations'] },
    },
    {
      if: { properties: { scope: { const: 'policy' } }, required: ['scope'] },
      then: { required: ['policy_evaluations'] },
    },
  ],
  additionalProperties: false,
} as const;

export const latestCommit = {
  type: 'object',
  properties: { latest_commit: nullableString },
  required: ['latest_commit'],
  additionalProperties: false,
} as const;
