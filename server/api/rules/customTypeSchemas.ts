// The JSON Schemas of custom attestation types, each type version compiled apart: its own ajv
// instance, which registers no `$id` (addUsedSchema off), so one org's `$id` never resolves for
// another's `$ref`, an org may reuse any `$id`, and a type's versions may keep theirs. Dropping a
// compiled version from the bounded cache drops its instance with it, so memory stays bounded
// however many types orgs create (a shared instance keeps every schema it ever compiled).
//
// Bounded work: a schema is refused above MAX_SCHEMA_BYTES or MAX_SCHEMA_DEPTH when the type is
// created (compiling costs about 5-10 µs per byte); `pattern` and `patternProperties` run on the
// linear-time engine (shared/regex/) with JSON Schema's u flag; `uniqueItems` is checked in time
// linear in the data instead of ajv's pairwise comparison (20,000 objects took 7.4 s); and a
// validation counts its steps (every compiled function called, loop turn and subschema applied)
// against a budget sized for the data, as jq rules do (shared/customTypes/jq/budget.ts): `$ref`s
// under `anyOf` can make validation exponential in the data's depth (2^22 calls took 343 ms at
// depth 22, doubling with each level), and a step budget stops it the same way every time.
import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import { BASE_STEPS, dataSize, PER_DATA_UNIT } from '../../../shared/customTypes/jq/budget.ts';
import { linearRegex } from '../../../shared/regex/index.ts';

/** Largest schema text a type may have: far beyond real schemas, and compiled in a fraction of a second. */
export const MAX_SCHEMA_BYTES = 64 * 1024;
/** Deepest nesting of objects and arrays in a schema: compile time grows faster than its size with depth. */
export const MAX_SCHEMA_DEPTH = 64;

const regExp = Object.assign((pattern: string, flags: string) => linearRegex(pattern, flags), { code: 'linearRegex' });

/** Thrown out of a validation over its step budget. */
export class SchemaBudgetExceeded extends Error {}

/** An ajv instance whose compiled code counts its steps in `stepsLeft` and calls overBudget() past them. */
class CountingAjv extends Ajv2020 {
  stepsLeft = Infinity;
  stepLimit = 0;

  overBudget(): never {
    throw new SchemaBudgetExceeded(
      `takes more than ${this.stepLimit.toLocaleString('en-US')} validation steps on this data`,
    );
  }
}

/** The instance each validator was compiled on, whose count it keeps. */
const instances = new WeakMap<ValidateFunction, CountingAjv>();

/** The validation's verdict on `data`, counted against a budget sized for it; throws SchemaBudgetExceeded past it. */
export function validateWithinBudget(validate: ValidateFunction, data: unknown): boolean {
  const ajv = instances.get(validate)!;
  ajv.stepLimit = BASE_STEPS + PER_DATA_UNIT * dataSize(data).values;
  ajv.stepsLeft = ajv.stepLimit;
  try {
    return validate(data);
  } finally {
    ajv.stepsLeft = Infinity;
  }
}

const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
/**
 * String literals (schema text lives in those, left as they are), then where generated code starts
 * a function, a loop turn or a subschema (a step is counted there), or checks whether a property
 * is present (a quarter of a step: a schema of many properties costs that many checks per object,
 * which a count per object alone would miss).
 */
const STEP_POINTS = new RegExp(
  [
    STRING,
    String.raw`\)\{let vErrors = null;`,
    String.raw`for\([^{}"]*\)\{`,
    String.raw`const _errs\d+ = errors;`,
    String.raw`if\(data\d*(?:\.[A-Za-z_$][\w$]*|\[${STRING}\]) !== undefined\)\{`,
  ].join('|'),
  'g',
);

/** Counts `steps` in the generated code itself (a call per property check would triple its cost). */
const spend = (steps: number): string => `if((self.stepsLeft-=${steps})<0)self.overBudget();`;

/**
 * Generated code longer than this runs unoptimized (V8 does not optimize functions that large), each
 * step about 30 times slower: its steps count that many times more, in proportion to its length
 * (a flat schema of 1,000 properties compiles to 850,000 characters).
 */
const OPTIMIZED_CODE_LENGTH = 64_000;

/** ajv's generated code for one function with a step counted at every STEP_POINTS. */
function counted(code: string): string {
  const weight = Math.max(1, code.length / OPTIMIZED_CODE_LENGTH);
  return code.replace(STEP_POINTS, (point) => {
    if (point.startsWith('"')) return point;
    if (point.startsWith(')')) return `${point}${spend(weight)}`;
    return `${spend((point.startsWith('if') ? 0.25 : 1) * weight)}${point}`;
  });
}

const OPTIONS: Options = {
  allErrors: true,
  verbose: true,
  strict: false,
  addUsedSchema: false,
  code: { regExp, process: counted },
};

/** A JSON value's text with object keys sorted, so deep-equal values (1 and 1.0 included) read the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `uniqueItems`, with ajv's error, by the items' canonical text: linear in the data. */
function uniqueItems(unique: boolean, data: unknown[]): boolean {
  if (!unique) return true;
  const seen = new Map<string, number>();
  for (const [i, item] of data.entries()) {
    const key = canonical(item);
    const j = seen.get(key);
    if (j !== undefined) {
      const error: Partial<ErrorObject> = {
        keyword: 'uniqueItems',
        params: { i: j, j: i },
        message: `must NOT have duplicate items (items ## ${i} and ${j} are identical)`,
      };
      uniqueItems.errors = [error];
      return false;
    }
    seen.set(key, i);
  }
  return true;
}
uniqueItems.errors = [] as Array<Partial<ErrorObject>>;

function instance(options: Options): CountingAjv {
  const ajv = new CountingAjv({ ...OPTIONS, ...options });
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, validate: uniqueItems });
  return ajv;
}

/** Checks schemas against the JSON Schema meta-schema (compiled once); it compiles nothing else. */
const checker = instance({ validateSchema: true });

function depthOf(value: unknown, depth = 0): number {
  if (value === null || typeof value !== 'object' || depth > MAX_SCHEMA_DEPTH) return depth;
  let deepest = depth + 1;
  for (const item of Object.values(value)) deepest = Math.max(deepest, depthOf(item, depth + 1));
  return deepest;
}

/** Why `schema` cannot be a type's schema (too large, not a JSON Schema, a pattern refused), or undefined. */
export function schemaProblem(schema: unknown, text: string): string | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return 'Input should be a valid dictionary';
  if (text.length > MAX_SCHEMA_BYTES) return `The schema is larger than ${MAX_SCHEMA_BYTES / 1024} KiB`;
  if (depthOf(schema) > MAX_SCHEMA_DEPTH) return `The schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`;
  try {
    if (!checker.validateSchema(schema)) return `Not a valid JSON Schema: schema is invalid: ${checker.errorsText()}`;
    compiled(schema as Record<string, unknown>);
    return undefined;
  } catch (error) {
    return `Not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The schema compiled on an instance of its own. */
function compiled(schema: Record<string, unknown>): ValidateFunction {
  const ajv = instance({ validateSchema: false });
  const validate = ajv.compile(schema);
  instances.set(validate, ajv);
  return validate;
}

const CACHE_LIMIT = 128;
/**
 * Compiled schemas by their text, the least recently used dropped first once full. Keyed by the
 * text, not by org and type version: what a validator does depends on nothing else, and ids of one
 * database would name other schemas in another (servers sharing a process, as the tests' do).
 */
const cache = new Map<string, ValidateFunction>();

/** The validator of a type version's schema, compiled once while it stays among the CACHE_LIMIT last used. */
export function schemaValidator(schema: Record<string, unknown>): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = cache.get(text);
  if (validate === undefined) {
    validate = compiled(schema);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  } else cache.delete(text);
  cache.set(text, validate);
  return validate;
}
