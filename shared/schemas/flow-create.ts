import { flowFields } from './bodyParts.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/flow-create/v1',
  title: 'CreateFlowPutInput',
  description:
    'Legacy PUT /flows/{org}: a flow whose template is one artifact named `artifact` with the listed attestations.',
  type: 'object',
  properties: {
    ...flowFields,
    template: {
      description: 'Attestation names expected on the artifact; `artifact` names the artifact slot itself.',
      type: 'array',
      items: {
        type: 'string',
      },
    },
  },
  required: ['name', 'description'],
  additionalProperties: false,
} as const;
