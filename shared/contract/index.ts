// The wire contract: every operation's response schemas, the error body and the pagination shapes.
export { errorBody } from './errors.ts';
export { errorResponses, operationKeyOf, operations, type Operation } from './operations.ts';
export {
  IMPACT_LIST_LIMIT,
  LISTED_DETAILS,
  policyDryRun,
  policyDryRunInput,
  policyDryRunQuery,
  templateImpact,
  templateImpactInput,
  templateImpactQuery,
} from './preview.ts';
