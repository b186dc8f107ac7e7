import { environmentFields } from './bodyParts.ts';
import { ENVIRONMENT_TYPES } from './values.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/environment-create/v1',
  title: 'CreateEnvironmentPutInput',
  description: 'PUT /environments/{org}: creates an environment, or updates it when it exists.',
  type: 'object',
  properties: {
    name: {
      $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/EnvironmentName',
      description: "The environment's name.",
    },
    type: {
      description: 'The environment type (case-sensitive); `logical` groups physical environments.',
      enum: ENVIRONMENT_TYPES,
    },
    ...environmentFields,
    include_scaling: {
      description: 'Deprecated; has no effect and always reads back false.',
      type: 'boolean',
    },
    require_provenance: {
      description: 'Deprecated.',
      type: 'boolean',
    },
  },
  required: ['name', 'type', 'description'],
  additionalProperties: false,
} as const;
