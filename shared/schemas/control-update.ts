import { controlFields } from './bodyParts.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/control-update/v1',
  title: 'ControlPutInput',
  description: 'PUT /controls/{org}/{id}: changes a control; its version rises by 1.',
  type: 'object',
  properties: {
    ...controlFields,
  },
  additionalProperties: false,
} as const;
