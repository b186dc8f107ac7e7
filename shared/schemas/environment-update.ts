export default {
  $id: 'https://compliance-evidence.dev/schemas/environment-update/v1',
  title: 'UpdateEnvironmentPatchInput',
  description: 'PATCH /environments/{org}/{env}.',
  type: 'object',
  properties: {
    description: {
      description: 'What the environment is.',
      type: 'string',
    },
    included_environments: {
      description: 'For a logical environment: the physical environments it includes.',
      type: 'array',
      items: {
        type: 'string',
      },
    },
    policies: {
      description: 'Names of policies attached to the environment.',
      type: 'array',
      items: {
        type: 'string',
      },
    },
  },
  additionalProperties: false,
} as const;
