// What the three action bodies (any kind, environment actions, flow actions) share: each is the
// same object of a name, a kind, targets and triggers, with the triggers and the watched list of
// its kind. Written once here; each schema names its own $id and title.

export const environmentTriggers = [
  'ON_STARTED_ARTIFACT',
  'ON_EXITED_ARTIFACT',
  'ON_CHANGED_ARTIFACT',
  'ON_SCALED_ARTIFACT',
  'ON_ALLOWED_ARTIFACT',
  'ON_NON_COMPLIANT_ENV',
  'ON_COMPLIANT_ENV',
] as const;

export const flowTriggers = [
  'ON_STARTED_TRAIL',
  'ON_ATTESTED_PROVENANCE',
  'ON_ATTESTATION',
  'ON_APPROVAL',
  'ON_RELEASE',
] as const;

const commonProperties = {
  name: { description: "The action's name.", type: 'string', minLength: 1 },
  type: { description: "The action's kind.", type: 'string' },
  targets: {
    description: 'Where notifications go.',
    type: 'array',
    items: {
      description:
        "Where a notification goes: `type` plus the target's own settings (e.g. `webhook` URL, `channel`, `email`).",
      type: 'object',
      properties: { type: { description: 'The target kind.', enum: ['SLACK', 'WEBHOOK', 'EMAIL'] } },
      required: ['type'],
    },
  },
} as const;

export const watchedEnvironments = {
  description: 'Environments the action watches.',
  type: 'array',
  items: { type: 'string' },
} as const;
export const watchedFlows = {
  description: 'Flows the action watches.',
  type: 'array',
  items: { type: 'string' },
} as const;

/** The properties of an action body whose triggers are `triggers`, before its watched lists. */
export function actionProperties<T extends readonly string[]>(triggers: T) {
  return {
    ...commonProperties,
    triggers: { description: 'Events that send a notification.', type: 'array', items: { enum: triggers } },
  } as const;
}

export const actionRequired = ['name', 'targets', 'triggers'] as const;
