export default {
  $id: 'https://compliance-evidence.dev/schemas/service-account-update/v1',
  title: 'ServiceAccountPatchInput',
  description: 'PATCH /service-accounts/{org}/{name}.',
  type: 'object',
  properties: {
    description: {
      description: 'What the account is for.',
      type: 'string',
    },
    privilege: {
      description: 'What the account may do.',
      enum: ['admin', 'member', 'snapshotter', 'reader'],
    },
  },
  additionalProperties: false,
} as const;
