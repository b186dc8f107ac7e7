export default {
  $id: 'https://compliance-evidence.dev/schemas/tags-update/v1',
  title: 'TagsPatchInput',
  description: 'PATCH /tags/{org}/{resource_type}/{id}.',
  type: 'object',
  properties: {
    set_tags: {
      description: 'Tags to set: key → value; null sets none.',
      type: ['object', 'null'],
      additionalProperties: {
        type: 'string',
      },
    },
    remove_tags: {
      description: 'Tag keys to remove; null removes none.',
      type: ['array', 'null'],
      items: {
        type: 'string',
      },
    },
  },
  additionalProperties: false,
} as const;
