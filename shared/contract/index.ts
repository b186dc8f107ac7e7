// The wire contract: every operation's response schemas, the error body and the pagination shapes.
export { errorBody } from './errors.ts';
export { errorResponses, operationKeyOf, operations, type Operation } from './operations.ts';
