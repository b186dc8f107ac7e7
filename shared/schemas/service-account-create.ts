import { serviceAccountFields } from './bodyParts.ts';

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
    ...serviceAccountFields,
  },
  required: ['name', 'privilege'],
  additionalProperties: false,
} as const;
