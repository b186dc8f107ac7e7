export default {
  $id: 'https://compliance-evidence.dev/schemas/environment-policies/v1',
  title: 'EnvironmentPoliciesInput',
  description: 'POST or DELETE /environments/{org}/{env}/policies: attaches or detaches policies.',
  type: 'object',
  properties: {
    policy_names: {
      description: 'Policy names.',
      type: 'array',
      items: {
        type: 'string',
      },
    },
  },
  required: ['policy_names'],
  additionalProperties: false,
} as const;
