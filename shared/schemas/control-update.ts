export default {
  $id: 'https://compliance-evidence.dev/schemas/control-update/v1',
  title: 'ControlPutInput',
  description: 'PUT /controls/{org}/{id}: changes a control; its version rises by 1.',
  type: 'object',
  properties: {
    name: {
      description: "The control's name.",
      type: 'string',
    },
    description: {
      description: 'What the control checks.',
      type: 'string',
    },
    links: {
      description: 'Links: label → URL.',
      type: 'object',
      additionalProperties: {
        type: 'string',
      },
    },
  },
  additionalProperties: false,
} as const;
