// Fields that a record's create body and its update body (or its two create bodies) share, each
// written once: the update body is the create body's changeable fields, not a copy of them.

const stringList = { type: 'array', items: { type: 'string' } } as const;

/** A control's fields that PUT can change; POST adds its identifier. */
export const controlFields = {
  name: { description: "The control's name.", type: 'string' },
  description: { description: 'What the control checks.', type: 'string' },
  links: { description: 'Links: label → URL.', type: 'object', additionalProperties: { type: 'string' } },
} as const;

/** An environment's fields that PATCH can change; PUT also names and types it. */
export const environmentFields = {
  description: { description: 'What the environment is.', type: 'string' },
  included_environments: {
    description: 'For a logical environment: the physical environments it includes.',
    ...stringList,
  },
  policies: { description: 'Names of policies attached to the environment.', ...stringList },
} as const;

/** A service account's fields that PATCH can change; POST also names it. */
export const serviceAccountFields = {
  description: { description: 'What the account is for.', type: 'string' },
  privilege: { description: 'What the account may do.', enum: ['admin', 'member', 'snapshotter', 'reader'] },
} as const;

/** A flow's own fields, as both the legacy PUT and the template upload's `data_json` name them. */
export const flowFields = {
  name: {
    $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/FlowName',
    description: "The flow's name.",
  },
  description: { description: 'What the flow is for.', type: 'string' },
  visibility: { description: 'Deprecated: who may see the flow.', enum: ['public', 'private'] },
} as const;
