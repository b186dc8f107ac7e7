export default {
  $id: 'https://compliance-evidence.dev/schemas/api-key-create/v1',
  title: 'ApiKeyPostInput',
  description: 'POST /service-accounts/{org}/{name}/api-keys.',
  type: 'object',
  properties: {
    description: {
      description: 'What the key is for.',
      type: 'string',
    },
    expires_at: {
      description: 'When the key expires, in Unix epoch seconds.',
      type: ['integer', 'null'],
    },
  },
  required: ['description'],
  additionalProperties: false,
} as const;
