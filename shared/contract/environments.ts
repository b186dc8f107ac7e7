// Environments, snapshots, events, diffs and allowlists (reference §2.5, §2.7, §2.17, §5.5–5.7).
import { policyDecision } from './artifacts.ts';
import {
  anyList,
  anyObject,
  anyValue,
  boolean,
  integer,
  links,
  nullableBoolean,
  nullableNumber,
  nullableString,
  number,
  string,
  stringList,
} from './values.ts';

export const environment = {
  title: 'Environment',
  type: 'object',
  properties: {
    org: string,
    name: string,
    type: string,
    description: string,
    created_by: string,
    created_at: number,
    last_modified_at: number,
    last_reported_at: nullableNumber,
    last_changed_at: nullableNumber,
    state: nullableBoolean,
    include_scaling: boolean,
    require_provenance: boolean,
    tags: anyObject,
    policies: stringList,
    included_environments: stringList,
    snapshot_count: integer,
    html_url: string,
  },
  required: [
    'org',
    'name',
    'type',
    'description',
    'created_at',
    'last_modified_at',
    'state',
    'tags',
    'policies',
    'html_url',
  ],
  additionalProperties: false,
} as const;

export const snapshotSummary = {
  type: 'object',
  properties: { index: integer, from: number, to: number, compliant: nullableBoolean, duration: number },
  required: ['index', 'from', 'to', 'compliant'],
  additionalProperties: false,
} as const;

export const snapshotArtifact = {
  type: 'object',
  properties: {
    name: string,
    fingerprint: nullableString,
    compliant: nullableBoolean,
    reasons_for_incompliance: stringList,
    policy_decisions: { type: 'array', items: policyDecision },
    creationTimestamp: { type: 'array', items: number },
    pods: { type: ['object', 'null'] },
    ecs_context: { type: ['array', 'null'] },
    annotation: { type: 'object', properties: { type: string, was: integer, now: integer } },
    flow_name: nullableString,
    git_commit: nullableString,
    commit_url: nullableString,
    flows: {
      type: 'array',
      items: {
        type: 'object',
        description: 'The trails that attested the artifact (provenance).',
        properties: {
          flow_name: string,
          trail_name: nullableString,
          template_reference_name: nullableString,
          git_commit: nullableString,
          commit_url: nullableString,
          build_url: nullableString,
          html_url: nullableString,
          flow_html_url: nullableString,
          repo_name: nullableString,
        },
        required: ['flow_name'],
        additionalProperties: false,
      },
    },
    html_url: nullableString,
    flow_html_url: nullableString,
    deployments: anyList,
    deployment_diff: anyValue,
    commit_lead_time: anyValue,
    instance_context: anyList,
  },
  required: ['name', 'compliant'],
  additionalProperties: false,
} as const;

export const snapshot = {
  title: 'Snapshot',
  type: 'object',
  properties: {
    index: integer,
    is_latest: boolean,
    next_snapshot_timestamp: nullableNumber,
    timestamp: number,
    from: number,
    to: number,
    type: string,
    compliant: nullableBoolean,
    artifact_compliance_count: {
      type: 'object',
      properties: { true: integer, false: integer, null: integer },
      additionalProperties: false,
    },
    event_counts: {
      type: 'object',
      properties: { total: integer, started: integer, changed: integer, exited: integer },
      additionalProperties: false,
    },
    html_url: string,
    applied_policies: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: string,
          name: string,
          version: integer,
          policy_dump: anyObject,
          failing_artifacts: stringList,
        },
        required: ['name', 'version'],
        additionalProperties: false,
      },
    },
    artifacts: { type: 'array', items: snapshotArtifact },
  },
  required: ['index', 'is_latest', 'timestamp', 'type', 'compliant', 'html_url', 'artifacts'],
  additionalProperties: false,
} as const;

export const environmentEvent = {
  title: 'EnvironmentEvent',
  type: 'object',
  properties: {
    environment_name: string,
    snapshot_index: integer,
    type: string,
    artifact_name: string,
    sha256: nullableString,
    description: string,
    reported_at: number,
    pipeline: nullableString,
    deployments: anyList,
    flows: anyList,
    repo_names: stringList,
    git_commit: nullableString,
    artifact_compliance: nullableBoolean,
    snapshot_compliance: nullableBoolean,
    code_diff: anyValue,
    _links: links,
  },
  required: ['environment_name', 'snapshot_index', 'type', 'artifact_name', 'reported_at'],
  additionalProperties: false,
} as const;

const diffArtifacts = {
  type: 'object',
  properties: {
    snapshot_id: string,
    artifacts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          fingerprint: nullableString,
          name: string,
          most_recent_timestamp: { ...nullableNumber, description: 'Null when no instance reported a start time.' },
          flow: nullableString,
          commit_url: nullableString,
          instance_count: integer,
          pods: { type: 'object', description: 'K8S only: the pods that run the artifact.' },
          s1_instance_count: { ...integer, description: 'In `changed`: the instances in the first snapshot.' },
          s2_instance_count: { ...integer, description: 'In `changed`: the instances in the second snapshot.' },
        },
        additionalProperties: false,
      },
    },
  },
  required: ['artifacts'],
  additionalProperties: false,
} as const;

export const environmentDiff = {
  title: 'EnvironmentDiff',
  type: 'object',
  properties: {
    snappish1: diffArtifacts,
    snappish2: diffArtifacts,
    changed: diffArtifacts,
    'not-changed': diffArtifacts,
  },
  required: ['snappish1', 'snappish2', 'changed', 'not-changed'],
  additionalProperties: false,
} as const;

export const allowlistEntry = {
  title: 'AllowlistEntry',
  type: 'object',
  properties: {
    environment_name: string,
    artifact_fingerprint: string,
    artifact_name: nullableString,
    description: nullableString,
    created_by: string,
    created_at: number,
  },
  required: ['environment_name', 'artifact_fingerprint', 'created_at'],
  additionalProperties: false,
} as const;
