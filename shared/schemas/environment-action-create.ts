import { actionProperties, actionRequired, environmentTriggers, watchedEnvironments } from './actionParts.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/environment-action-create/v1',
  title: 'EnvironmentActionPutInput',
  description: 'PUT /actions/{org}/environments: a notification on environment events.',
  type: 'object',
  properties: { ...actionProperties(environmentTriggers), environments: watchedEnvironments },
  required: actionRequired,
  additionalProperties: false,
} as const;
