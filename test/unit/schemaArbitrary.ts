// fast-check arbitraries built from the shared JSON Schemas: values of the shape a schema
// describes (types, required and optional properties, open maps, enums, anyOf branches, patterns),
// so property tests draw documents the published schema accepts. Keywords the schemas do not use
// are not read; the caller filters draws through ajv, which has the last word.
import fc, { type Arbitrary } from 'fast-check';
import { schemas } from '../../shared/schemas/index.ts';

/** The keywords read here, as the shared schemas write them. */
interface Schema {
  $id?: string;
  $ref?: string;
  const?: unknown;
  enum?: readonly unknown[];
  anyOf?: readonly Schema[];
  type?: string | readonly string[];
  properties?: Readonly<Record<string, Schema>>;
  required?: readonly string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: { pattern?: string };
  items?: Schema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  pattern?: string;
}

/** A schema or any part of one (a JSON object, or a list, in which a pointer walks by index). */
function isSchemaPart(value: unknown): value is Schema & Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

const byId = new Map<string, Schema>(Object.values(schemas).map((schema: Schema) => [String(schema.$id), schema]));

/** The schema a `$ref` names, relative to the document `root` it appears in. */
function resolve(ref: string, root: Schema): { schema: Schema; root: Schema } {
  const [base, pointer = ''] = ref.split('#');
  const document = base ? byId.get(base) : root;
  if (!document) throw new Error(`unknown $ref ${ref}`);
  let schema: unknown = document;
  for (const part of pointer.split('/').filter((segment) => segment !== ''))
    schema = isSchemaPart(schema) ? schema[part] : undefined;
  if (!isSchemaPart(schema)) throw new Error(`$ref ${ref} names no schema`);
  return { schema, root: document };
}

const plainKey = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
const scalar: Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -5, max: 1_000_000 }),
  fc.boolean(),
  fc.constant(null),
);
const anyJson: Arbitrary<unknown> = fc.oneof(
  { maxDepth: 2 },
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(plainKey, scalar, { maxKeys: 3 }),
);

/** Short words drawn often, so lists repeat names and rules meet the values they single out. */
const commonWords = ['a', 'b', '*', 'decision', 'junit', 'custom:x', 'build-1'];

function stringArbitrary(schema: Schema): Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 16, 16);
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : undefined;
  const drawn = pattern ? fc.stringMatching(pattern) : fc.string({ minLength, maxLength });
  const common = commonWords.filter((word) =>
    pattern ? pattern.test(word) : word.length >= minLength && word.length <= maxLength,
  );
  return common.length === 0 ? drawn : fc.oneof(drawn, fc.constantFrom(...common));
}

function typedArbitrary(type: string, schema: Schema, root: Schema, depth: number): Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: 2_000_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: 2e9, noNaN: true, noDefaultInfinity: true });
    case 'string':
      return stringArbitrary(schema);
    case 'array':
      return fc.array(schema.items ? arbitraryOf(schema.items, root, depth + 1) : anyJson, { maxLength: 3 });
    case 'object':
      return objectArbitrary(schema, root, depth);
    default:
      throw new Error(`type ${type}`);
  }
}

function objectArbitrary(schema: Schema, root: Schema, depth: number): Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const model: Record<string, Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) model[key] = arbitraryOf(property, root, depth + 1);
  const known = fc.record(model, { requiredKeys: required.filter((key) => key in model) });
  const extra = schema.additionalProperties;
  if (extra === false || depth > 6) return known;
  const keys = schema.propertyNames?.pattern ? fc.stringMatching(new RegExp(schema.propertyNames.pattern)) : plainKey;
  const values = typeof extra === 'object' ? arbitraryOf(extra, root, depth + 1) : anyJson;
  const more = fc.dictionary(
    keys.filter((key) => !(key in properties)),
    values,
    { maxKeys: Object.keys(properties).length === 0 ? 3 : 1 },
  );
  return fc.tuple(known, more).map(([fixed, open]) => ({ ...open, ...(fixed as object) }));
}

/** An arbitrary of values the schema describes. */
export function arbitraryOf(schema: Schema, root: Schema = schema, depth = 0): Arbitrary<unknown> {
  if (schema.$ref) {
    const target = resolve(schema.$ref, root);
    return arbitraryOf(target.schema, target.root, depth);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  if (schema.anyOf !== undefined)
    return fc.oneof(
      ...schema.anyOf.map((branch) => arbitraryOf({ ...schema, anyOf: undefined, ...branch }, root, depth)),
    );
  const types = typeof schema.type === 'string' ? [schema.type] : (schema.type ?? []);
  if (types.length === 0) return schema.properties ? objectArbitrary(schema, root, depth) : anyJson;
  return fc.oneof(...types.map((type) => typedArbitrary(type, schema, root, depth)));
}
