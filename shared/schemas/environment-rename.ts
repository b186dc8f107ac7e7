export default {
  $id: 'https://compliance-evidence.dev/schemas/environment-rename/v1',
  title: 'RenameEnvironmentInput',
  description: 'PUT /environments/{org}/{env}/rename.',
  type: 'object',
  properties: {
    new_name: {
      $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/EnvironmentName',
      description: "The environment's new name.",
    },
  },
  required: ['new_name'],
  additionalProperties: false,
} as const;
