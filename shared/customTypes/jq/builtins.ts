// The builtin functions rules can call, with jq's semantics and error wording. Each takes its
// arguments as filters (run against the same input), as jq does: `has(.k)` looks up every output of `.k`.
import { allocate, read, spend, uncounted } from './budget.ts';
import { arithmetic, indexValue, iterateValue } from './operations.ts';
import { compiledRegex } from './regex.ts';
import { JqRuntimeError, type JqNode, type JqValue } from './syntax.ts';
import { compareValues, describeValue, isObject, isTruthy, sortedKeys, typeOf, valuesEqual } from './values.ts';

export type Run = (node: JqNode, input: JqValue) => Iterable<JqValue>;

export interface Builtin {
  arities: readonly number[];
  /** One line for the editor and the docs. */
  description: string;
  apply(input: JqValue, args: JqNode[], run: Run): Iterable<JqValue>;
}

/** `f(a)` applied to every output of the argument `a`. */
function withEach(input: JqValue, arg: JqNode, run: Run, f: (value: JqValue) => JqValue): Iterable<JqValue> {
  return (function* () {
    for (const value of run(arg, input)) yield f(value);
  })();
}

function requireString(value: JqValue, what: string): string {
  if (typeof value !== 'string') throw new JqRuntimeError(`${describeValue(value)} ${what}`);
  return value;
}

function anyOf(generator: Iterable<JqValue>, condition: JqNode | undefined, run: Run): boolean {
  for (const item of generator) {
    for (const verdict of condition === undefined ? [item] : run(condition, item)) if (isTruthy(verdict)) return true;
  }
  return false;
}

function allOf(generator: Iterable<JqValue>, condition: JqNode | undefined, run: Run): boolean {
  for (const item of generator) {
    for (const verdict of condition === undefined ? [item] : run(condition, item)) if (!isTruthy(verdict)) return false;
  }
  return true;
}

function length(input: JqValue): JqValue {
  if (input === null) return 0;
  if (typeof input === 'number') return Math.abs(input);
  if (typeof input === 'string') {
    read(input.length);
    return Array.from(input).length;
  }
  if (Array.isArray(input)) return input.length;
  if (isObject(input)) return Object.keys(input).length;
  throw new JqRuntimeError(`${describeValue(input)} has no length`);
}

function has(input: JqValue, key: JqValue): JqValue {
  if (input === null) return false;
  if (isObject(input) && typeof key === 'string') return Object.hasOwn(input, key);
  if (Array.isArray(input) && typeof key === 'number') return key >= 0 && key < input.length;
  throw new JqRuntimeError(`Cannot check whether ${typeOf(input)} has a ${typeOf(key)} key`);
}

/** jq's containment: substrings, every wanted element inside some element, keys recursively. */
export function contains(input: JqValue, wanted: JqValue): boolean {
  spend(1);
  if (typeOf(input) !== typeOf(wanted)) {
    throw new JqRuntimeError(
      `${describeValue(input)} and ${describeValue(wanted)} cannot have their containment checked`,
    );
  }
  if (typeof input === 'string') {
    read(input.length);
    return input.includes(wanted as string);
  }
  if (Array.isArray(input))
    return (wanted as JqValue[]).every((item) =>
      input.some((candidate) => typeOf(candidate) === typeOf(item) && contains(candidate, item)),
    );
  if (isObject(input)) {
    return Object.entries(wanted as { [key: string]: JqValue }).every(
      ([key, item]) => Object.hasOwn(input, key) && typeOf(input[key]) === typeOf(item) && contains(input[key], item),
    );
  }
  return valuesEqual(input, wanted);
}

function extreme(input: JqValue, sign: 1 | -1): JqValue {
  if (!Array.isArray(input))
    throw new JqRuntimeError(`${describeValue(input)} cannot be searched for a ${sign > 0 ? 'maximum' : 'minimum'}`);
  return input.reduce<JqValue>(
    (best, item, index) => (index === 0 || sign * compareValues(item, best) >= 0 ? item : best),
    null,
  );
}

function toNumber(input: JqValue): JqValue {
  if (typeof input === 'number') return input;
  if (typeof input !== 'string') throw new JqRuntimeError(`${describeValue(input)} cannot be parsed as a number`);
  read(input.length);
  // One way to read each number (digits, then an optional fraction): `\d+\.?\d*` split a run of
  // digits every way before failing, quadratic in its length (40,000 digits and an x: 6 s).
  if (/^\s*-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/.test(input)) return Number(input);
  throw new JqRuntimeError(`${describeValue(input)} cannot be parsed as a number`);
}

function asciiCase(input: JqValue, upper: boolean): JqValue {
  const text = requireString(input, `cannot be ${upper ? 'upper' : 'lower'}cased`);
  allocate(text.length);
  return text.replace(upper ? /[a-z]+/g : /[A-Z]+/g, (letters) =>
    upper ? letters.toUpperCase() : letters.toLowerCase(),
  );
}

function sorted(input: JqValue): JqValue[] {
  if (!Array.isArray(input))
    throw new JqRuntimeError(`${describeValue(input)} cannot be sorted, as it is not an array`);
  allocate(input.length);
  spend(Math.ceil((input.length * Math.log2(input.length + 1)) / 4));
  return uncounted(() => [...input].sort(compareValues));
}

/** jq's own definition: the separator goes between elements (so its type matters from the second on). */
function joined(input: JqValue, separator: JqValue): JqValue {
  let result: JqValue = null;
  for (const item of iterateValue(input)) {
    const text =
      item === null ? '' : typeof item === 'number' || typeof item === 'boolean' ? JSON.stringify(item) : item;
    result = arithmetic('+', result === null ? '' : arithmetic('+', result, separator), text);
  }
  return result ?? '';
}

function trimmed(input: JqValue, affix: JqValue, fromStart: boolean): JqValue {
  if (typeof input !== 'string' || typeof affix !== 'string') return input;
  read(input.length);
  if (fromStart) return input.startsWith(affix) ? input.slice(affix.length) : input;
  return input.endsWith(affix) && affix !== '' ? input.slice(0, input.length - affix.length) : input;
}

/** JSON.stringify's text, counted once written (it is at most the size of the data). */
function jsonText(input: JqValue): string {
  const text = JSON.stringify(input);
  allocate(text.length);
  return text;
}

const single =
  (f: (input: JqValue) => JqValue) =>
  (input: JqValue): Iterable<JqValue> => [f(input)];

export const BUILTINS: Readonly<Record<string, Builtin>> = {
  empty: { arities: [0], description: 'Produces no output.', apply: () => [] },
  not: {
    arities: [0],
    description: 'true for false and null, false otherwise.',
    apply: single((input) => !isTruthy(input)),
  },
  length: {
    arities: [0],
    description: 'Length of a string (code points), array or object; absolute value of a number; 0 for null.',
    apply: single(length),
  },
  keys: {
    arities: [0],
    description: "An object's keys, sorted, or an array's indices.",
    apply: single((input) => {
      if (isObject(input)) {
        allocate(Object.keys(input).length);
        return sortedKeys(input);
      }
      if (Array.isArray(input)) {
        allocate(input.length);
        return input.map((_, index) => index);
      }
      throw new JqRuntimeError(`${describeValue(input)} has no keys`);
    }),
  },
  type: {
    arities: [0],
    description: "The input's type: null, boolean, number, string, array or object.",
    apply: single(typeOf),
  },
  has: {
    arities: [1],
    description: 'Whether an object has the key, or an array the index.',
    apply: (input, [key], run) => withEach(input, key, run, (value) => has(input, value)),
  },
  select: {
    arities: [1],
    description: 'The input, once for each true output of the condition.',
    apply: function* (input, [condition], run) {
      for (const verdict of run(condition, input)) if (isTruthy(verdict)) yield input;
    },
  },
  map: {
    arities: [1],
    description: 'The filter applied to every element, collected in an array.',
    apply: (input, [filter], run) => {
      const result: JqValue[] = [];
      for (const item of iterateValue(input)) for (const output of run(filter, item)) result.push(output);
      allocate(result.length);
      return [result];
    },
  },
  any: {
    arities: [0, 1, 2],
    description:
      'any: some element is true; any(cond): cond holds for some element; any(gen; cond): cond holds for some output of gen.',
    apply: (input, args, run) => [
      args.length === 2 ? anyOf(run(args[0], input), args[1], run) : anyOf(iterateValue(input), args[0], run),
    ],
  },
  all: {
    arities: [0, 1, 2],
    description:
      'all: every element is true; all(cond): cond holds for every element; all(gen; cond): cond holds for every output of gen.',
    apply: (input, args, run) => [
      args.length === 2 ? allOf(run(args[0], input), args[1], run) : allOf(iterateValue(input), args[0], run),
    ],
  },
  test: {
    arities: [1, 2],
    description:
      'Whether the string matches the regular expression (flags: i ignores case); patterns run in linear time, so lookaround and backreferences are refused.',
    apply: function* (input, [pattern, flags], run) {
      for (const flagValue of flags === undefined ? [''] : run(flags, input)) {
        for (const patternValue of run(pattern, input)) {
          const text = requireString(input, 'cannot be matched, as it is not a string');
          read(text.length);
          yield compiledRegex(
            requireString(patternValue, 'cannot be matched, as it is not a string'),
            requireString(flagValue, 'is not a string'),
          ).test(text);
        }
      }
    },
  },
  startswith: {
    arities: [1],
    description: 'Whether the string starts with the given string.',
    apply: (input, [prefix], run) =>
      withEach(input, prefix, run, (value) => {
        if (typeof input !== 'string' || typeof value !== 'string')
          throw new JqRuntimeError('startswith() requires string inputs');
        return input.startsWith(value);
      }),
  },
  endswith: {
    arities: [1],
    description: 'Whether the string ends with the given string.',
    apply: (input, [suffix], run) =>
      withEach(input, suffix, run, (value) => {
        if (typeof input !== 'string' || typeof value !== 'string')
          throw new JqRuntimeError('endswith() requires string inputs');
        return input.endsWith(value);
      }),
  },
  contains: {
    arities: [1],
    description: 'Whether the input contains the value (substrings, array elements, object keys).',
    apply: (input, [wanted], run) => withEach(input, wanted, run, (value) => contains(input, value)),
  },
  add: {
    arities: [0],
    description: 'The elements added together with +; null for an empty array.',
    apply: single((input) => iterateValue(input).reduce<JqValue>((total, item) => arithmetic('+', total, item), null)),
  },
  min: {
    arities: [0],
    description: 'The smallest element in jq order; null for an empty array.',
    apply: single((input) => extreme(input, -1)),
  },
  max: {
    arities: [0],
    description: 'The largest element in jq order; null for an empty array.',
    apply: single((input) => extreme(input, 1)),
  },
  first: { arities: [0], description: 'The first element (.[0]).', apply: single((input) => indexValue(input, 0)) },
  last: { arities: [0], description: 'The last element (.[-1]).', apply: single((input) => indexValue(input, -1)) },
  tostring: {
    arities: [0],
    description: 'A string as itself, anything else as its JSON text.',
    apply: single((input) => (typeof input === 'string' ? input : jsonText(input))),
  },
  tonumber: { arities: [0], description: 'A number, or a string holding one, as a number.', apply: single(toNumber) },
  ascii_downcase: {
    arities: [0],
    description: 'The string with A-Z lowercased.',
    apply: single((input) => asciiCase(input, false)),
  },
  ascii_upcase: {
    arities: [0],
    description: 'The string with a-z uppercased.',
    apply: single((input) => asciiCase(input, true)),
  },
  sort: {
    arities: [0],
    description: 'The array sorted in jq order (null, false, true, numbers, strings, arrays, objects).',
    apply: single(sorted),
  },
  unique: {
    arities: [0],
    description: 'The array sorted, without duplicates.',
    apply: single((input) =>
      sorted(input).filter((item, index, all) => index === 0 || compareValues(all[index - 1], item) !== 0),
    ),
  },
  join: {
    arities: [1],
    description: 'The elements joined with the separator (null as empty, numbers and booleans as text).',
    apply: (input, [separator], run) => withEach(input, separator, run, (value) => joined(input, value)),
  },
  split: {
    arities: [1],
    description: 'The string split at every occurrence of the separator.',
    apply: (input, [separator], run) =>
      withEach(input, separator, run, (value) => {
        if (typeof input !== 'string' || typeof value !== 'string')
          throw new JqRuntimeError('split input and separator must be strings');
        allocate(input.length);
        return input === '' ? [] : input.split(value);
      }),
  },
  ltrimstr: {
    arities: [1],
    description: 'The string without the prefix, if it starts with it; anything else unchanged.',
    apply: (input, [prefix], run) => withEach(input, prefix, run, (value) => trimmed(input, value, true)),
  },
  rtrimstr: {
    arities: [1],
    description: 'The string without the suffix, if it ends with it; anything else unchanged.',
    apply: (input, [suffix], run) => withEach(input, suffix, run, (value) => trimmed(input, value, false)),
  },
  values: {
    arities: [0],
    description: 'The input unless it is null.',
    apply: (input) => (input === null ? [] : [input]),
  },
  to_entries: {
    arities: [0],
    description: 'An object as a list of {key, value} in the order of its keys; an array with its indices as keys.',
    apply: single((input) => {
      if (Array.isArray(input)) {
        allocate(3 * input.length);
        return input.map((value, key) => ({ key, value }));
      }
      if (!isObject(input)) throw new JqRuntimeError(`${describeValue(input)} has no keys`);
      const entries = Object.entries(input);
      allocate(3 * entries.length);
      return entries.map(([key, value]) => ({ key, value }));
    }),
  },
  floor: {
    arities: [0],
    description: 'The number rounded down.',
    apply: single((input) => {
      if (typeof input !== 'number') throw new JqRuntimeError(`${describeValue(input)} number required`);
      return Math.floor(input);
    }),
  },
  tojson: { arities: [0], description: 'The input as JSON text.', apply: single(jsonText) },
  in: {
    arities: [1],
    description: 'Whether the input is a key of the object, or an index of the array, given.',
    apply: (input, [container], run) => withEach(input, container, run, (value) => has(value, input)),
  },
  inside: {
    arities: [1],
    description: 'Whether the value given contains the input (contains, reversed).',
    apply: (input, [container], run) => withEach(input, container, run, (value) => contains(value, input)),
  },
};

/** Why `name` with `arity` arguments cannot be called in a rule, if it cannot. */
export function builtinProblem(name: string, arity: number): string | undefined {
  const builtin = Object.hasOwn(BUILTINS, name) ? BUILTINS[name] : undefined;
  if (builtin === undefined)
    return `Unknown function '${name}/${arity}' (rules can use ${Object.keys(BUILTINS).join(', ')})`;
  if (builtin.arities.includes(arity)) return undefined;
  return `'${name}' takes ${builtin.arities.join(' or ')} argument${builtin.arities.length === 1 && builtin.arities[0] === 1 ? '' : 's'}, not ${arity}`;
}
