export default {
  $id: 'https://compliance-evidence.dev/schemas/flow-template-create/v1',
  title: 'CreateFlowWithTemplateInput',
  description:
    "The `data_json` part of PUT /flows/{org}/template_file: the flow's name and description (the template is its own part).",
  type: 'object',
  properties: {
    name: {
      $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/FlowName',
      description: "The flow's name.",
    },
    description: {
      description: 'What the flow is for.',
      type: 'string',
    },
    visibility: {
      description: 'Deprecated: who may see the flow.',
      enum: ['public', 'private'],
    },
  },
  required: ['name'],
  additionalProperties: false,
} as const;
