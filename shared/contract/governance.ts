// Policies, controls and decisions, actions, custom attestation types (spec "Policy", "Control",
// "Control decision", "Action"; reference §2.9, §2.11, §2.12, §2.15).
import {
  anyObject,
  anyValue,
  boolean,
  integer,
  nullableNumber,
  nullableString,
  number,
  string,
  stringList,
} from './values.ts';

export const policy = {
  title: 'Policy',
  type: 'object',
  properties: {
    name: string,
    description: string,
    type: string,
    archived: boolean,
    consuming_envs: stringList,
    created_at: number,
    created_by: string,
    last_modified_at: number,
    events: {
      type: 'array',
      items: {
        type: 'object',
        properties: { type: string, timestamp: number, user: string, data: anyObject },
        required: ['type', 'timestamp'],
        additionalProperties: false,
      },
    },
    versions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          version: integer,
          policy_yaml: string,
          timestamp: number,
          created_by: string,
          comment: nullableString,
        },
        required: ['version', 'policy_yaml', 'timestamp'],
        additionalProperties: false,
      },
    },
  },
  required: ['name', 'description', 'archived', 'consuming_envs', 'created_at', 'events', 'versions'],
  additionalProperties: false,
} as const;

export const control = {
  title: 'Control',
  type: 'object',
  properties: {
    identifier: string,
    name: string,
    description: string,
    version: integer,
    archived: boolean,
    created_by: string,
    created_at: number,
    last_modified_at: number,
    tags: anyObject,
    links: anyObject,
    policies_referencing: stringList,
  },
  required: ['identifier', 'name', 'version', 'archived', 'created_at', 'policies_referencing'],
  additionalProperties: false,
} as const;

export const controlDecision = {
  title: 'ControlDecision',
  type: 'object',
  properties: {
    control: string,
    is_compliant: boolean,
    timestamp: number,
    attestation_name: string,
    evidence_files: {
      type: 'array',
      items: {
        type: 'object',
        properties: { filename: string, download_url: string },
        required: ['filename', 'download_url'],
        additionalProperties: false,
      },
    },
    control_version: integer,
    flow_name: string,
    trail_name: string,
    artifact_fingerprint: nullableString,
    artifact_name: nullableString,
    description: nullableString,
    origin_url: nullableString,
    user_data: anyValue,
  },
  required: [
    'control',
    'is_compliant',
    'timestamp',
    'attestation_name',
    'evidence_files',
    'control_version',
    'flow_name',
    'trail_name',
  ],
  additionalProperties: false,
} as const;

export const action = {
  title: 'Action',
  type: 'object',
  properties: {
    name: string,
    type: string,
    number: integer,
    targets: { type: 'array', items: anyObject },
    triggers: stringList,
    created_by: string,
    is_created_from_slack_app: boolean,
    last_modified_at: number,
    is_failing: boolean,
    last_success_timestamp: nullableNumber,
    last_failure_timestamp: nullableNumber,
    created_at: number,
    flows: stringList,
    environments: stringList,
  },
  required: ['name', 'type', 'number', 'targets', 'triggers', 'is_failing', 'created_at', 'flows', 'environments'],
  additionalProperties: false,
} as const;

/** One version of a custom type, as `versions` lists them (reference §8.2 item 5). */
export const customTypeVersion = {
  title: 'CustomAttestationTypeVersion',
  type: 'object',
  properties: {
    version: integer,
    type_schema: anyObject,
    jq_rules: stringList,
    summary: { type: 'array' },
    created_at: number,
    created_by: string,
  },
  required: ['version', 'type_schema', 'jq_rules', 'summary', 'created_at', 'created_by'],
  additionalProperties: false,
} as const;

export const customType = {
  title: 'CustomAttestationType',
  type: 'object',
  properties: {
    name: string,
    version: integer,
    schema: anyObject,
    evaluator: { type: ['object', 'null'] },
    summary: { type: 'array' },
    description: nullableString,
    created_by: string,
    created_at: number,
    last_modified_at: number,
    archived: boolean,
    versions: {
      description:
        'Every version, oldest first: clients take the number of entries as the latest version (reference §8.2 item 5).',
      type: 'array',
      items: customTypeVersion,
    },
  },
  required: ['name', 'version', 'schema', 'archived', 'versions'],
  additionalProperties: false,
} as const;

export const systemType = {
  title: 'SystemAttestationType',
  type: 'object',
  properties: { name: string, description: string, attestation_type: string },
  required: ['name', 'description', 'attestation_type'],
  additionalProperties: false,
} as const;
