import { flowFields } from './bodyParts.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/flow-template-create/v1',
  title: 'CreateFlowWithTemplateInput',
  description:
    "The `data_json` part of PUT /flows/{org}/template_file: the flow's name and description (the template is its own part).",
  type: 'object',
  properties: {
    ...flowFields,
  },
  required: ['name'],
  additionalProperties: false,
} as const;
