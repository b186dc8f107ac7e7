// The JSON Schema of each document kind, and every registered schema document so that `$ref`s
// between documents (`common/v1#/$defs/...`) resolve, from the shared registry.
import { schemas } from '../../../shared/schemas/index.ts';
import type { DocumentKind } from '../../../shared/validate.ts';
import { schemaIndexOf, type Schema } from './schemaWalk.ts';

export const schemaIndex = schemaIndexOf(Object.values(schemas));

export function schemaOfKind(kind: DocumentKind): Schema | undefined {
  return (schemas as Record<string, Schema>)[kind];
}
