// Request bodies the API accepts besides whole documents: one checker, named by schema.
import type { Issue } from '../findings.ts';
import type { BodySchemaName } from './index.ts';
import { schemaIssues } from './issues.ts';

/** The issues of a request body; codes are `body/<rule>`, paths are the API's `errors` keys. */
export function checkBody(name: BodySchemaName, value: unknown): Issue[] {
  return schemaIssues(name, value, 'body');
}
