// Deployments, builds and what is running (reference §8.4). The hosted answers' shapes are not
// known: each is built from the operation's request and the spec's resources (a deployment is an
// artifact starting to run in an environment, as its `started` event says; a build is an artifact
// reported into a flow), and the operations are marked `x-shape: inferred`.
import { integer, nullableBoolean, nullableNumber, nullableString, number, string, stringList } from './values.ts';

const flowAndTrail = {
  type: 'object',
  properties: { flow_name: string, trail_name: string },
  required: ['flow_name', 'trail_name'],
  additionalProperties: false,
} as const;

export const deployment = {
  title: 'Deployment',
  type: 'object',
  properties: {
    environment_name: string,
    environment_type: string,
    snapshot_index: { ...integer, description: 'The snapshot that saw the artifact start.' },
    deployed_at: number,
    artifact_name: string,
    fingerprint: string,
    git_commit: string,
    flows: { type: 'array', items: flowAndTrail, description: 'Where the artifact is attested.' },
    repo_names: stringList,
    is_compliant: { ...nullableBoolean, description: 'Its compliance in that snapshot; null without a policy.' },
    html_url: { ...string, description: "The snapshot's page." },
  },
  required: [
    'environment_name',
    'environment_type',
    'snapshot_index',
    'deployed_at',
    'artifact_name',
    'fingerprint',
    'git_commit',
    'flows',
    'repo_names',
    'is_compliant',
    'html_url',
  ],
  additionalProperties: false,
} as const;

export const deploymentFrequency = {
  title: 'DeploymentFrequency',
  type: 'object',
  properties: {
    environment_name: string,
    from_timestamp: number,
    to_timestamp: number,
    interval: { type: 'string', enum: ['day', 'week'] },
    total: integer,
    per_day: { ...number, description: 'Deployments a day over the window.' },
    buckets: {
      type: 'array',
      items: {
        type: 'object',
        properties: { from: number, to: number, count: integer },
        required: ['from', 'to', 'count'],
        additionalProperties: false,
      },
    },
  },
  required: ['environment_name', 'from_timestamp', 'to_timestamp', 'interval', 'total', 'per_day', 'buckets'],
  additionalProperties: false,
} as const;

export const repoDeploymentStatistics = {
  title: 'RepoDeploymentStatistics',
  type: 'object',
  properties: {
    repo_name: string,
    from_timestamp: nullableNumber,
    to_timestamp: nullableNumber,
    total: integer,
    first_deployed_at: nullableNumber,
    last_deployed_at: nullableNumber,
    environments: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          environment_name: string,
          deployments: integer,
          first_deployed_at: number,
          last_deployed_at: number,
        },
        required: ['environment_name', 'deployments', 'first_deployed_at', 'last_deployed_at'],
        additionalProperties: false,
      },
    },
  },
  required: [
    'repo_name',
    'from_timestamp',
    'to_timestamp',
    'total',
    'first_deployed_at',
    'last_deployed_at',
    'environments',
  ],
  additionalProperties: false,
} as const;

export const liveArtifact = {
  title: 'LiveArtifact',
  type: 'object',
  properties: {
    environment_name: string,
    environment_type: string,
    snapshot_index: integer,
    artifact_name: string,
    fingerprint: string,
    flow_name: string,
    trail_name: string,
    git_commit: string,
    instances: integer,
    is_compliant: nullableBoolean,
    deployed_at: { ...nullableNumber, description: 'When it last started to run there.' },
    html_url: { ...string, description: "The snapshot's page." },
  },
  required: [
    'environment_name',
    'environment_type',
    'snapshot_index',
    'artifact_name',
    'fingerprint',
    'flow_name',
    'trail_name',
    'git_commit',
    'instances',
    'is_compliant',
    'deployed_at',
    'html_url',
  ],
  additionalProperties: false,
} as const;

/** An artifact reported into a flow: a build. */
export const build = {
  title: 'Build',
  type: 'object',
  properties: {
    flow_name: string,
    trail_name: string,
    artifact_name: string,
    fingerprint: string,
    template_reference_name: string,
    git_commit: string,
    build_url: string,
    commit_url: string,
    repo_name: nullableString,
    built_at: number,
    state: { type: 'string', enum: ['COMPLIANT', 'NON-COMPLIANT', 'INCOMPLETE'] },
    html_url: { ...string, description: "The artifact's page." },
  },
  required: [
    'flow_name',
    'trail_name',
    'artifact_name',
    'fingerprint',
    'template_reference_name',
    'git_commit',
    'build_url',
    'commit_url',
    'repo_name',
    'built_at',
    'state',
    'html_url',
  ],
  additionalProperties: false,
} as const;

const buildCounts = {
  builds: integer,
  compliant: integer,
  non_compliant: integer,
  incomplete: { ...integer, description: 'Builds whose trail is not complete, or not yet judged.' },
} as const;

export const buildStatistics = {
  title: 'BuildStatistics',
  type: 'object',
  properties: {
    from_timestamp: nullableNumber,
    to_timestamp: nullableNumber,
    ...buildCounts,
    first_built_at: nullableNumber,
    last_built_at: nullableNumber,
    flows: {
      type: 'array',
      items: {
        type: 'object',
        properties: { flow_name: string, ...buildCounts },
        required: ['flow_name', 'builds', 'compliant', 'non_compliant', 'incomplete'],
        additionalProperties: false,
      },
    },
  },
  required: [
    'from_timestamp',
    'to_timestamp',
    'builds',
    'compliant',
    'non_compliant',
    'incomplete',
    'first_built_at',
    'last_built_at',
    'flows',
  ],
  additionalProperties: false,
} as const;
