import {
  actionProperties,
  actionRequired,
  environmentTriggers,
  flowTriggers,
  watchedEnvironments,
  watchedFlows,
} from './actionParts.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/action-create/v1',
  title: 'ActionPutInput',
  description: 'PUT /actions/{org}: creates or updates a notification action.',
  type: 'object',
  properties: {
    ...actionProperties([...environmentTriggers, ...flowTriggers] as const),
    environments: watchedEnvironments,
    flows: watchedFlows,
  },
  required: actionRequired,
  additionalProperties: false,
} as const;
