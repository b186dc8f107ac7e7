export default {
  $id: 'https://compliance-evidence.dev/schemas/flow-rename/v1',
  title: 'RenameFlowInput',
  description: 'PUT /flows/{org}/{flow}/rename.',
  type: 'object',
  properties: {
    new_name: {
      $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/FlowName',
      description: "The flow's new name.",
    },
  },
  required: ['new_name'],
  additionalProperties: false,
} as const;
