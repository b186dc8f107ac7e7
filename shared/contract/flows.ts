// Flows and trails (spec "Trail", reference §2.1, §2.2, §3.4).
import {
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

export const templateAttestation = {
  type: 'object',
  properties: { name: string, type: string },
  required: ['name', 'type'],
  additionalProperties: false,
} as const;

export const flow = {
  title: 'Flow',
  type: 'object',
  properties: {
    id: string,
    name: string,
    description: string,
    visibility: { type: 'string', enum: ['public', 'private'] },
    org: string,
    template: { type: 'string', description: 'The YAML text of the current template.' },
    repo_url: nullableString,
    tags: anyObject,
    created_at: number,
    last_modified_at: number,
    created_by: string,
    html_url: string,
    latest_activity_at: nullableNumber,
    latest_state: nullableString,
  },
  required: [
    'id',
    'name',
    'description',
    'visibility',
    'org',
    'template',
    'tags',
    'created_at',
    'last_modified_at',
    'html_url',
  ],
  additionalProperties: false,
} as const;

/** A template slot's verdict (spec: compliance_status.attestations_statuses). */
export const attestationStatus = {
  type: 'object',
  properties: {
    attestation_name: string,
    attestation_type: string,
    attestation_id: nullableString,
    overridden_attestation_id: nullableString,
    status: string,
    is_compliant: nullableBoolean,
    unexpected: boolean,
  },
  required: ['attestation_name', 'status'],
  additionalProperties: false,
} as const;

export const artifactStatus = {
  type: 'object',
  properties: {
    artifact_fingerprint: nullableString,
    artifact_id: nullableString,
    status: string,
    is_compliant: nullableBoolean,
    unexpected: boolean,
    evaluated_at: number,
    flow_template_id: { ...string, description: 'The template the slot was evaluated against.' },
    attestations_statuses: { type: 'array', items: attestationStatus },
  },
  required: ['status', 'flow_template_id'],
  additionalProperties: false,
} as const;

export const complianceStatus = {
  type: 'object',
  properties: {
    status: string,
    is_compliant: boolean,
    evaluated_at: number,
    flow_template_id: string,
    attestations_statuses: { type: 'array', items: attestationStatus },
    artifacts_statuses: { type: 'object', additionalProperties: artifactStatus },
  },
  required: [
    'status',
    'is_compliant',
    'evaluated_at',
    'flow_template_id',
    'attestations_statuses',
    'artifacts_statuses',
  ],
  additionalProperties: false,
} as const;

/**
 * A commit as answers show it: the fields the reporter sent, with the four clients read always
 * there (reference §1.11): a sha1 of at least 7 characters, author and message ("" when not
 * sent) and timestamp (0 when not sent).
 */
export const gitCommitInfo = {
  type: 'object',
  description:
    'sha1, message, author, branch, timestamp, url, ... as the reporter sent them; author and message "" and timestamp 0 when not sent.',
  properties: {
    sha1: { type: 'string', minLength: 7 },
    message: string,
    author: string,
    branch: nullableString,
    timestamp: number,
    url: nullableString,
  },
  required: ['sha1', 'message', 'author', 'timestamp'],
} as const;

/** git_commit_info of an answer: the commit, or null when none was reported. */
export const nullableGitCommitInfo = { anyOf: [gitCommitInfo, { type: 'null' }] } as const;

/**
 * One entry of a trail's `events`, oldest first (reference §3.4): what happened, when, to which
 * trail, with the commit and repository the report that made it carried (null for an event no
 * report with a commit made, such as an artifact starting to run). The other fields depend on the
 * type: `trail_data_json` (the trail's data as reported) on trail_reported and trail_updated, the
 * attestation's ids on attestation events, the artifact's on artifact_creation_reported, the
 * environment's on artifact_started_running and artifact_stopped_running.
 */
export const trailEvent = {
  type: 'object',
  properties: {
    org_id: string,
    flow_id: string,
    trail_id: string,
    timestamp: number,
    type: string,
    git_commit_info: nullableGitCommitInfo,
    repo_info: { type: ['object', 'null'] },
    trail_data_json: anyObject,
    attestation_id: string,
    attestation_type: string,
    is_compliant: nullableBoolean,
    template_reference_name: string,
    target_artifact: string,
    artifact_id: string,
    artifact_name: string,
    artifact_fingerprint: string,
    git_commit: string,
    environment_id: string,
    environment_name: string,
    snapshot_index: integer,
  },
  required: ['org_id', 'flow_id', 'trail_id', 'timestamp', 'type', 'git_commit_info', 'repo_info'],
} as const;

export const trail = {
  title: 'Trail',
  type: 'object',
  properties: {
    name: string,
    description: string,
    created_at: number,
    last_modified_at: number,
    created_by: string,
    compliance_status: complianceStatus,
    compliance_state: string,
    is_compliant: boolean,
    template: {
      type: 'object',
      properties: {
        version: integer,
        trail: {
          type: 'object',
          properties: {
            attestations: { type: 'array', items: templateAttestation },
            artifacts: {
              type: 'array',
              items: {
                type: 'object',
                properties: { name: string, attestations: { type: 'array', items: templateAttestation } },
                required: ['name'],
                additionalProperties: false,
              },
            },
          },
          additionalProperties: false,
        },
        content: string,
      },
      additionalProperties: false,
    },
    flow: {
      type: 'object',
      properties: { name: string, tags: anyObject },
      required: ['name', 'tags'],
      additionalProperties: false,
    },
    html_url: string,
    origin_url: nullableString,
    user_data: anyValue,
    repo_ids: stringList,
    external_urls: anyObject,
    events: { type: 'array', items: trailEvent },
    git_commit_info: nullableGitCommitInfo,
    repo_info: { type: ['object', 'null'] },
  },
  required: [
    'name',
    'description',
    'created_at',
    'last_modified_at',
    'created_by',
    'compliance_status',
    'compliance_state',
    'is_compliant',
    'template',
    'flow',
    'html_url',
    'origin_url',
    'user_data',
    'repo_ids',
    'external_urls',
    'events',
    'git_commit_info',
    'repo_info',
  ],
  additionalProperties: false,
} as const;

/** An item of `GET /attestations/{org}/{flow}` (spec "Flow attestation record"). */
export const flowAttestationRecord = {
  title: 'FlowAttestationRecord',
  type: 'object',
  properties: {
    attestation_id: string,
    attestation_name: string,
    attestation_type: string,
    created_at: number,
    description: nullableString,
    has_audit_package: boolean,
    html_url: string,
    is_compliant: nullableBoolean,
    origin_url: nullableString,
    reported_by: string,
    schema_version: integer,
    trail_name: string,
    user_data: anyValue,
  },
  required: [
    'attestation_id',
    'attestation_name',
    'attestation_type',
    'created_at',
    'html_url',
    'is_compliant',
    'schema_version',
  ],
  additionalProperties: false,
} as const;

/**
 * A whole attestation (reference §2.3): the common fields plus the fields of its type
 * (scan_results, junit_results, pull_requests, attestation_data, ...), hence open.
 */
export const attestation = {
  title: 'Attestation',
  type: 'object',
  properties: {
    attestation_name: string,
    schema_version: integer,
    attestation_type: string,
    attestation_id: string,
    is_compliant: nullableBoolean,
    origin_url: nullableString,
    description: nullableString,
    artifact_fingerprint: nullableString,
    target_artifacts: { type: 'array' },
    git_commit_info: nullableGitCommitInfo,
    repo_info: { type: ['object', 'null'] },
    user_data: anyValue,
    annotations: anyObject,
    external_urls: anyObject,
    evidence_archive_path: nullableString,
    evidence_archive_fingerprint: {
      ...nullableString,
      description: 'The sha256 of the evidence file kept with the attestation; null without one.',
    },
    has_audit_package: { ...boolean, description: 'Whether evidence is kept with the attestation.' },
    processed_snyk_results: {
      description: "A snyk attestation's findings counted per result and level; null for other types.",
      anyOf: [
        {
          type: 'object',
          properties: {
            schema_version: integer,
            tool: { type: ['object', 'null'] },
            results: {
              type: 'array',
              items: {
                type: 'object',
                properties: { high_count: integer, medium_count: integer, low_count: integer },
                required: ['high_count', 'medium_count', 'low_count'],
                additionalProperties: false,
              },
            },
          },
          required: ['schema_version', 'tool', 'results'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    },
    created_at: number,
    reported_by: string,
    flow_name: string,
    trail_name: string,
    html_url: string,
    _links: links,
  },
  required: [
    'attestation_name',
    'attestation_type',
    'attestation_id',
    'is_compliant',
    'evidence_archive_path',
    'evidence_archive_fingerprint',
    'has_audit_package',
    'processed_snyk_results',
    'created_at',
    'flow_name',
    'trail_name',
    'html_url',
  ],
  additionalProperties: true,
} as const;
