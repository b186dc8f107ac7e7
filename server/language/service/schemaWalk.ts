// Reading the shared JSON Schemas for the editor: which schemas apply at a path, which keys and
// values they allow, what they say about them. Only reads the schemas; rules stay in shared/.
import type { PathSegment } from '../../../shared/findings.ts';

export type Schema = Record<string, unknown>;

export interface Choice {
  value: unknown;
  description?: string;
}

/** Every subschema that may apply at `path` (through `$ref`, `anyOf`, `oneOf`, `allOf`). */
export function schemasAt(root: Schema, path: readonly PathSegment[]): Schema[] {
  let current = expand(root, [root]);
  for (const segment of path) {
    const next: Schema[] = [];
    for (const schema of current) {
      if (typeof segment === 'number') {
        if (isSchema(schema.items)) next.push(schema.items);
        if (Array.isArray(schema.prefixItems) && isSchema(schema.prefixItems[segment])) next.push(schema.prefixItems[segment] as Schema);
      } else {
        const property = propertiesOf(schema)[segment];
        if (isSchema(property)) next.push(property);
        else if (isSchema(schema.additionalProperties)) next.push(schema.additionalProperties);
        for (const [pattern, sub] of Object.entries(objectOf(schema.patternProperties))) {
          if (isSchema(sub) && safeTest(pattern, segment)) next.push(sub);
        }
      }
    }
    current = expand(root, next);
    if (current.length === 0) break;
  }
  return current;
}

/** Keys the schemas define, with their subschema (first definition wins). */
export function propertiesAt(root: Schema, schemas: readonly Schema[]): Map<string, Schema[]> {
  const properties = new Map<string, Schema[]>();
  for (const schema of schemas) {
    for (const [key, sub] of Object.entries(propertiesOf(schema))) {
      if (!isSchema(sub) || properties.has(key)) continue;
      properties.set(key, expand(root, [sub]));
    }
  }
  return properties;
}

/** Values the schemas name outright: enums, consts, booleans. */
export function choicesOf(schemas: readonly Schema[]): Choice[] {
  const choices: Choice[] = [];
  const seen = new Set<string>();
  const add = (value: unknown, description?: string): void => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return;
    seen.add(key);
    choices.push({ value, description });
  };
  for (const schema of schemas) {
    const description = typeof schema.description === 'string' ? schema.description : undefined;
    if (Array.isArray(schema.enum)) for (const value of schema.enum) if (value !== null) add(value, description);
    if ('const' in schema) add(schema.const, description);
    if (schema.type === 'boolean' || (Array.isArray(schema.type) && schema.type.includes('boolean'))) {
      add(true, description);
      add(false, description);
    }
  }
  return choices;
}

/** Literal beginnings of string patterns (`^custom:[...]` gives `custom:`), for snippet values. */
export function patternPrefixesOf(schemas: readonly Schema[]): string[] {
  const prefixes: string[] = [];
  for (const schema of schemas) {
    if (typeof schema.pattern !== 'string') continue;
    const literal = /^\^([A-Za-z0-9_:/.-]+)/.exec(schema.pattern)?.[1];
    if (literal !== undefined && literal.length > 1) prefixes.push(literal);
  }
  return prefixes;
}

export function descriptionOf(schemas: readonly Schema[]): string | undefined {
  for (const schema of schemas) if (typeof schema.description === 'string') return schema.description;
  return undefined;
}

export function requiredOf(schemas: readonly Schema[]): Set<string> {
  const required = new Set<string>();
  for (const schema of schemas) if (Array.isArray(schema.required)) for (const key of schema.required) required.add(String(key));
  return required;
}

export function isArraySchema(schemas: readonly Schema[]): boolean {
  return schemas.some((schema) => schema.type === 'array' || isSchema(schema.items));
}

export function isObjectSchema(schemas: readonly Schema[]): boolean {
  return schemas.some((schema) => schema.type === 'object' || isSchema(schema.properties));
}

/** The name a `$ref` gives an item schema (`#/$defs/attestation` → `attestation`). */
export function definitionNameOf(schema: Schema): string | undefined {
  return typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
}

/** A schema with its `$ref`s and combinators flattened into the list of schemas that apply. */
export function expand(root: Schema, schemas: readonly Schema[]): Schema[] {
  const out: Schema[] = [];
  const seen = new Set<Schema>();
  const visit = (schema: Schema, depth: number): void => {
    if (depth > 32 || seen.has(schema)) return;
    seen.add(schema);
    out.push(schema);
    if (typeof schema.$ref === 'string') {
      const target = resolveRef(root, schema.$ref);
      if (target !== undefined) visit(target, depth + 1);
    }
    for (const combinator of ['allOf', 'anyOf', 'oneOf'] as const) {
      const branches = schema[combinator];
      if (Array.isArray(branches)) for (const branch of branches) if (isSchema(branch)) visit(branch, depth + 1);
    }
  };
  for (const schema of schemas) visit(schema, 0);
  return out;
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter((part) => part !== '')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = objectOf(node)[part];
  }
  return isSchema(node) ? node : undefined;
}

function propertiesOf(schema: Schema): Record<string, unknown> {
  return objectOf(schema.properties);
}

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}
