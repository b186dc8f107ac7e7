import { environmentFields } from './bodyParts.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/environment-update/v1',
  title: 'UpdateEnvironmentPatchInput',
  description: 'PATCH /environments/{org}/{env}.',
  type: 'object',
  properties: {
    ...environmentFields,
    include_scaling: {
      description: 'Deprecated; accepted as the create form accepts it, has no effect and always reads back false.',
      type: 'boolean',
    },
  },
  additionalProperties: false,
} as const;
