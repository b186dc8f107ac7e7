export default {
  $id: 'https://compliance-evidence.dev/schemas/service-account-create/v1',
  title: 'ServiceAccountPostInput',
  description: 'POST /service-accounts/{org}.',
  type: 'object',
  properties: {
    name: {
      description: "The service account's name.",
      type: 'string',
      minLength: 1,
    },
    description: {
      description: 'What the account is for.',
      type: 'string',
    },
    privilege: {
      description: 'What the account may do.',
      enum: ['admin', 'member', 'snapshotter', 'reader'],
    },
  },
  required: ['name', 'privilege'],
  additionalProperties: false,
} as const;
