import { environmentFields } from './bodyParts.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/environment-update/v1',
  title: 'UpdateEnvironmentPatchInput',
  description: 'PATCH /environments/{org}/{env}.',
  type: 'object',
  properties: {
    ...environmentFields,
  },
  additionalProperties: false,
} as const;
