import { actionProperties, actionRequired, flowTriggers, watchedFlows } from './actionParts.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/flow-action-create/v1',
  title: 'FlowActionPutInput',
  description: 'PUT /actions/{org}/flows: a notification on flow events.',
  type: 'object',
  properties: { ...actionProperties(flowTriggers), flows: watchedFlows },
  required: actionRequired,
  additionalProperties: false,
} as const;
