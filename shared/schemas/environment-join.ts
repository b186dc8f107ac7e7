export default {
  $id: 'https://compliance-evidence.dev/schemas/environment-join/v1',
  title: 'JoinEnvironmentInput',
  description: 'PUT /environments/{org}/{logical}/join: adds a physical environment to a logical one.',
  type: 'object',
  properties: {
    physical_env_name: {
      description: 'The physical environment to include.',
      type: 'string',
    },
  },
  required: ['physical_env_name'],
  additionalProperties: false,
} as const;
