import { controlFields } from './bodyParts.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/control-create/v1',
  title: 'ControlPostInput',
  description: 'POST /controls/{org}: creates a control (beta).',
  type: 'object',
  properties: {
    identifier: {
      $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/ControlIdentifier',
      description: "The control's identifier.",
    },
    ...controlFields,
  },
  required: ['identifier', 'name'],
  additionalProperties: false,
} as const;
