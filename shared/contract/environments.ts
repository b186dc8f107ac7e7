// Environments, snapshots, events, diffs and allowlists (reference §2.5, §2.7, §2.17, §5.5–5.7).
import { policyDecision } from './artifacts.ts';
import { nullableGitCommitInfo } from './flows.ts';
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
  properties: { index: integer, from: number, to: number, compliant: boolean, duration: number },
  // Clients read index, to, duration and compliant with strict types (reference §1.11).
  required: ['index', 'from', 'to', 'compliant', 'duration'],
  additionalProperties: false,
} as const;

/** What a deployment replaced (reference §8.5): the artifact of the same flow and template slot that ran before it. */
export const deploymentDiff = {
  type: 'object',
  description:
    'The artifact of the same flow and template slot that ran in the environment before this one started (the previous snapshot).',
  properties: {
    diff_url: {
      ...nullableString,
      description: "The repository's comparison of the two commits; null without its address.",
    },
    previous_git_commit: string,
    previous_git_commit_url: string,
    previous_fingerprint: string,
    previous_artifact_name: string,
    previous_artifact_compliance_state: nullableString,
    previous_running: { ...boolean, description: 'Whether it still runs beside this one.' },
    previous_trail_name: string,
    previous_template_reference_name: string,
  },
  required: [
    'diff_url',
    'previous_git_commit',
    'previous_git_commit_url',
    'previous_fingerprint',
    'previous_artifact_name',
    'previous_artifact_compliance_state',
    'previous_running',
    'previous_trail_name',
    'previous_template_reference_name',
  ],
  additionalProperties: false,
} as const;

const nullableDeploymentDiff = {
  description: 'What the deployment replaced; null when it replaced nothing, or was recorded before this was.',
  anyOf: [deploymentDiff, { type: 'null' }],
} as const;

const commitLeadTime = {
  ...nullableNumber,
  description:
    'Seconds from the commit to the artifact first running in the environment; null without the commit time.',
} as const;

/** One flow that built a snapshot artifact: its trail, commit and deployment. */
export const snapshotFlow = {
  type: 'object',
  description: 'A trail that attested the artifact (provenance).',
  properties: {
    flow_name: string,
    trail_name: string,
    template_reference_name: string,
    git_commit: string,
    commit_url: string,
    git_commit_info: nullableGitCommitInfo,
    build_url: string,
    html_url: string,
    flow_html_url: string,
    repo_name: string,
    deployment_diff: nullableDeploymentDiff,
    commit_lead_time: commitLeadTime,
  },
  required: [
    'flow_name',
    'trail_name',
    'template_reference_name',
    'git_commit',
    'commit_url',
    'git_commit_info',
    'html_url',
    'flow_html_url',
    'deployment_diff',
    'commit_lead_time',
  ],
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
    ecs_context: {
      description:
        'ECS only: the task that runs the artifact (the first, when several do; instance_context lists them all).',
      anyOf: [
        {
          type: 'object',
          properties: { task_arn: string, cluster_name: nullableString, service_name: nullableString },
          required: ['task_arn', 'cluster_name', 'service_name'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    },
    annotation: { type: 'object', properties: { type: string, was: integer, now: integer } },
    flow_name: nullableString,
    git_commit: nullableString,
    commit_url: nullableString,
    flows: { type: 'array', items: snapshotFlow },
    html_url: nullableString,
    flow_html_url: nullableString,
    deployments: anyList,
    deployment_diff: { ...nullableDeploymentDiff, description: "Its first flow's deployment_diff." },
    commit_lead_time: { ...commitLeadTime, description: "Its first flow's commit_lead_time." },
    instance_context: { ...anyList, description: 'ECS, azure-apps and cloud-run: where each instance runs.' },
  },
  required: ['name', 'compliant', 'ecs_context', 'flows', 'deployment_diff', 'commit_lead_time'],
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
    compliant: { ...boolean, description: 'Clients assert by it (reference §1.11).' },
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
    sha256: { ...string, description: '"" for an artifact whose digest is unknown.' },
    description: string,
    reported_at: number,
    pipeline: { ...string, description: 'The flow of its first provenance; "" without one.' },
    deployments: anyList,
    flows: anyList,
    repo_names: stringList,
    git_commit: nullableString,
    artifact_compliance: nullableBoolean,
    snapshot_compliance: nullableBoolean,
    code_diff: anyValue,
    _links: links,
  },
  // Clients read the numbers and strings of reference §1.11 with strict types ("" rather than null).
  required: [
    'environment_name',
    'snapshot_index',
    'type',
    'artifact_name',
    'sha256',
    'description',
    'reported_at',
    'pipeline',
  ],
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
