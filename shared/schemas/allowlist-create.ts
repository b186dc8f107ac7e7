export default {
  $id: 'https://compliance-evidence.dev/schemas/allowlist-create/v1',
  title: 'AllowlistPutInput',
  description: 'PUT /allowlists/{org}/{env}: allows an artifact in an environment.',
  type: 'object',
  properties: {
    artifact_fingerprint: {
      $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/Fingerprint',
      description: "The allowed artifact's fingerprint.",
    },
    artifact_name: {
      description: "The allowed artifact's name.",
      type: 'string',
    },
    description: {
      description: 'Why the artifact is allowed.',
      type: 'string',
    },
  },
  required: ['artifact_fingerprint', 'description'],
  additionalProperties: false,
} as const;
