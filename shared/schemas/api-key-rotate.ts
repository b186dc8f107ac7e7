export default {
  $id: 'https://compliance-evidence.dev/schemas/api-key-rotate/v1',
  title: 'ApiKeyRotateInput',
  description: 'POST /service-accounts/{org}/{name}/api-keys/{key_id}/rotate.',
  type: 'object',
  properties: {
    grace_period_hours: {
      description: 'How long the old key keeps working, in hours.',
      type: ['integer', 'null'],
      minimum: 0,
    },
    expires_at: {
      description: 'When the new key expires, in Unix epoch seconds.',
      type: ['integer', 'null'],
    },
  },
  additionalProperties: false,
} as const;
