// Reading the shared JSON Schemas for the editor: which schemas apply at a path, which keys and
// values they allow, what they say about them. Only reads the schemas; rules stay in shared/.
import type { PathSegment } from '../../../shared/findings.ts';
import { isObject, objectOrEmpty } from '../../../shared/text/values.ts';

export type Schema = Record<string, unknown>;

/** Every schema document by `$id`, and the document each subschema belongs to (for `#` refs). */
export interface SchemaIndex {
  byId: Map<string, Schema>;
  documentOf: WeakMap<Schema, Schema>;
}

export function schemaIndexOf(documents: readonly Schema[]): SchemaIndex {
  const index: SchemaIndex = { byId: new Map(), documentOf: new WeakMap() };
  for (const document of documents) {
    if (typeof document.$id === 'string') index.byId.set(document.$id, document);
    const visit = (node: unknown, depth: number): void => {
      if (depth > 64 || typeof node !== 'object' || node === null) return;
      if (!Array.isArray(node)) index.documentOf.set(node as Schema, document);
      for (const child of Object.values(node)) visit(child, depth + 1);
    };
    visit(document, 0);
  }
  return index;
}

export interface Choice {
  value: unknown;
  description?: string;
}

/** Every subschema that may apply at `path` (through `$ref`, `anyOf`, `oneOf`, `allOf`). */
export function schemasAt(index: SchemaIndex, start: Schema, path: readonly PathSegment[]): Schema[] {
  let current = expand(index, [start]);
  for (const segment of path) {
    const next: Schema[] = [];
    for (const schema of current) {
      if (typeof segment === 'number') {
        if (isSchema(schema.items)) next.push(schema.items);
        if (Array.isArray(schema.prefixItems) && isSchema(schema.prefixItems[segment]))
          next.push(schema.prefixItems[segment]);
      } else {
        const property = propertiesOf(schema)[segment];
        if (isSchema(property)) next.push(property);
        else if (isSchema(schema.additionalProperties)) next.push(schema.additionalProperties);
        for (const [pattern, sub] of Object.entries(objectOrEmpty(schema.patternProperties))) {
          if (isSchema(sub) && safeTest(pattern, segment)) next.push(sub);
        }
      }
    }
    current = expand(index, next);
    if (current.length === 0) break;
  }
  return current;
}

/** Keys the schemas define, with their subschema (first definition wins). */
export function propertiesAt(index: SchemaIndex, schemas: readonly Schema[]): Map<string, Schema[]> {
  const properties = new Map<string, Schema[]>();
  for (const schema of schemas) {
    for (const [key, sub] of Object.entries(propertiesOf(schema))) {
      if (!isSchema(sub) || properties.has(key)) continue;
      properties.set(key, expand(index, [sub]));
    }
  }
  return properties;
}

/** Values the schemas name outright: enums, consts, booleans, and plain examples. */
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
    if (Array.isArray(schema.examples))
      for (const value of schema.examples) if (!isPlaceholder(value)) add(value, description);
    if (schema.type === 'boolean' || (Array.isArray(schema.type) && schema.type.includes('boolean'))) {
      add(true, description);
      add(false, description);
    }
  }
  return choices;
}

/**
 * Literal beginnings of values the schemas describe only by shape, for snippets: from patterns
 * (`^custom:[...]` gives `custom:`) and from examples with a placeholder (`custom:<type-name>`).
 */
export function valuePrefixesOf(schemas: readonly Schema[]): string[] {
  const prefixes = new Set<string>();
  for (const schema of schemas) {
    // A pattern's literal head ends at its first metacharacter (`.` only counts escaped).
    const literal =
      typeof schema.pattern === 'string'
        ? /^\^((?:[A-Za-z0-9_:/-]|\\\.)+)/.exec(schema.pattern)?.[1]?.replace(/\\\./g, '.')
        : undefined;
    if (literal !== undefined && literal.length > 1) prefixes.add(literal);
    if (Array.isArray(schema.examples))
      for (const value of schema.examples) if (isPlaceholder(value)) prefixes.add(value.slice(0, value.indexOf('<')));
  }
  return [...prefixes].filter((prefix) => prefix !== '');
}

function isPlaceholder(value: unknown): value is string {
  return typeof value === 'string' && /<[^>]+>/.test(value);
}

export function descriptionOf(schemas: readonly Schema[]): string | undefined {
  for (const schema of schemas) if (typeof schema.description === 'string') return schema.description;
  return undefined;
}

export function requiredOf(schemas: readonly Schema[]): Set<string> {
  const required = new Set<string>();
  for (const schema of schemas)
    if (Array.isArray(schema.required)) for (const key of schema.required) required.add(String(key));
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
export function expand(index: SchemaIndex, schemas: readonly Schema[]): Schema[] {
  const out: Schema[] = [];
  const seen = new Set<Schema>();
  const visit = (schema: Schema, depth: number): void => {
    if (depth > 32 || seen.has(schema)) return;
    seen.add(schema);
    out.push(schema);
    if (typeof schema.$ref === 'string') {
      const target = resolveRef(index, schema, schema.$ref);
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

// `#/$defs/x` within the schema's own document, `<$id>#/$defs/x` in another registered one.
function resolveRef(index: SchemaIndex, from: Schema, ref: string): Schema | undefined {
  const hash = ref.indexOf('#');
  const base = hash < 0 ? ref : ref.slice(0, hash);
  const pointer = hash < 0 ? '' : ref.slice(hash + 1);
  let node: unknown = base === '' ? index.documentOf.get(from) : index.byId.get(base);
  for (const raw of pointer.split('/').filter((part) => part !== '')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = objectOrEmpty(node)[part];
  }
  return isSchema(node) ? node : undefined;
}

function propertiesOf(schema: Schema): Record<string, unknown> {
  return objectOrEmpty(schema.properties);
}

function isSchema(value: unknown): value is Schema {
  return isObject(value);
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}
