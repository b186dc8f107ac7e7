import { serviceAccountFields } from './bodyParts.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/service-account-update/v1',
  title: 'ServiceAccountPatchInput',
  description: 'PATCH /service-accounts/{org}/{name}.',
  type: 'object',
  properties: {
    ...serviceAccountFields,
  },
  additionalProperties: false,
} as const;
