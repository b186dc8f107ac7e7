export default {
  $id: 'https://compliance-evidence.dev/schemas/policy-create/v1',
  title: 'PolicyPutInput',
  description: 'The `payload` part of PUT /policies/{org} (the policy YAML is the `policy_file` part).',
  type: 'object',
  properties: {
    name: {
      description: "The policy's name.",
      type: 'string',
      minLength: 1,
    },
    description: {
      description: 'What the policy is for.',
      type: 'string',
    },
    comment: {
      description: 'What changed in this version.',
      type: 'string',
    },
    type: {
      description: 'The policy kind; only `env` exists.',
      enum: ['env'],
    },
  },
  required: ['name'],
  additionalProperties: false,
} as const;
