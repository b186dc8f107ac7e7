// The JSON Schema of each document kind, from the shared registry.
import { schemas } from '../../../shared/schemas/index.ts';
import type { DocumentKind } from '../../../shared/validate.ts';
import type { Schema } from './schemaWalk.ts';

export function schemaOfKind(kind: DocumentKind): Schema | undefined {
  return (schemas as Record<string, Schema>)[kind];
}
