// Evaluator of the jq subset: a filter maps one input to a stream of outputs, modelled as a
// generator so `any`, `all`, `//` and `and`/`or` stop as soon as their answer is known.
// Output order follows jq: for binary operators the right operand varies slowest.
// Most of a rule has exactly one output (`.a.b`, `.x > 1`, `length`); such parts are computed as
// plain values, without generators, which makes per-element conditions (`all(.[]; .ok)`) several
// times cheaper.
import { BUILTINS } from './builtins.ts';
import { allocate, spend } from './budget.ts';
import { arithmetic, indexValue, iterateValue, sliceValue } from './operations.ts';
import { JqRuntimeError, type JqNode, type JqValue } from './syntax.ts';
import { compareValues, describeValue, isTruthy, typeOf } from './values.ts';

function compare(operator: string, left: JqValue, right: JqValue): boolean {
  const order = compareValues(left, right);
  switch (operator) {
    case '==':
      return order === 0;
    case '!=':
      return order !== 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    default:
      return order >= 0;
  }
}

function* objects(
  entries: Array<{ key: JqNode; value: JqNode }>,
  input: JqValue,
  from: number,
  built: Array<[string, JqValue]>,
): Generator<JqValue> {
  if (from === entries.length) {
    allocate(built.length);
    yield Object.fromEntries(built);
    return;
  }
  const entry = entries[from];
  for (const key of outputs(entry.key, input)) {
    if (typeof key !== 'string') throw new JqRuntimeError(`Object keys must be strings, not ${typeOf(key)}`);
    for (const value of outputs(entry.value, input)) yield* objects(entries, input, from + 1, [...built, [key, value]]);
  }
}

/** The values of one path step; nothing where an optional step fails. */
function step(optional: boolean, values: () => JqValue[]): JqValue[] {
  if (!optional) return values();
  try {
    return values();
  } catch (error) {
    if (error instanceof JqRuntimeError) return [];
    throw error;
  }
}

/** Builtins with exactly one output whenever each of their arguments has exactly one. */
const SINGLE_OUTPUT_BUILTINS = new Set([
  'not',
  'length',
  'keys',
  'type',
  'has',
  'map',
  'any',
  'all',
  'test',
  'startswith',
  'endswith',
  'contains',
  'add',
  'min',
  'max',
  'first',
  'last',
  'tostring',
  'tonumber',
  'ascii_downcase',
  'ascii_upcase',
  'sort',
  'unique',
  'join',
  'split',
  'ltrimstr',
  'rtrimstr',
  'to_entries',
  'floor',
  'tojson',
  'in',
  'inside',
]);
const singles = new WeakMap<JqNode, boolean>();

/** Whether `node` always has exactly one output (or raises an error), whatever its input. */
function isSingle(node: JqNode): boolean {
  let known = singles.get(node);
  if (known === undefined) {
    known = singleByShape(node);
    singles.set(node, known);
  }
  return known;
}

function singleByShape(node: JqNode): boolean {
  switch (node.kind) {
    case 'identity':
    case 'literal':
    case 'array':
      return true;
    case 'index':
      return !node.optional && isSingle(node.target) && isSingle(node.index);
    case 'slice':
      return (
        !node.optional &&
        isSingle(node.target) &&
        [node.from, node.to].every((bound) => bound === undefined || isSingle(bound))
      );
    case 'arithmetic':
    case 'comparison':
    case 'and':
    case 'or':
      return isSingle(node.left) && isSingle(node.right);
    case 'negate':
      return isSingle(node.operand);
    case 'object':
      return node.entries.every(({ key, value }) => isSingle(key) && isSingle(value));
    case 'if':
      return (
        node.branches.every(({ condition, then }) => isSingle(condition) && isSingle(then)) &&
        (node.otherwise === undefined || isSingle(node.otherwise))
      );
    case 'call':
      return SINGLE_OUTPUT_BUILTINS.has(node.name) && node.args.every(isSingle);
    default:
      return false;
  }
}

/** The one output of a node for which isSingle holds. */
function single(node: JqNode, input: JqValue): JqValue {
  spend(1);
  switch (node.kind) {
    case 'identity':
      return input;
    case 'literal':
      return node.value;
    case 'index':
      return indexValue(single(node.target, input), single(node.index, input));
    case 'comparison': {
      const right = single(node.right, input);
      return compare(node.operator, single(node.left, input), right);
    }
    case 'arithmetic': {
      const right = single(node.right, input);
      return arithmetic(node.operator, single(node.left, input), right);
    }
    case 'and':
    case 'or': {
      const left = isTruthy(single(node.left, input));
      if (left === (node.kind === 'or')) return left;
      return isTruthy(single(node.right, input));
    }
    default:
      return [...run(node, input)][0]!;
  }
}

/** The outputs of `node` for `input`: a one-element list where the node has exactly one. */
export function outputs(node: JqNode, input: JqValue): Iterable<JqValue> {
  if (isSingle(node)) return [single(node, input)];
  if (node.kind === 'call' && node.name === 'select' && isSingle(node.args[0]))
    return isTruthy(single(node.args[0], input)) ? [input] : [];
  return run(node, input);
}

/** The outputs of `node` for `input`; throws JqRuntimeError where jq raises an error. */
export function* run(node: JqNode, input: JqValue): Generator<JqValue> {
  spend(1);
  switch (node.kind) {
    case 'identity':
      yield input;
      return;
    case 'literal':
      yield node.value;
      return;
    case 'index':
      for (const target of outputs(node.target, input)) {
        for (const key of outputs(node.index, input)) {
          spend(1);
          yield* step(node.optional, () => [indexValue(target, key)]);
        }
      }
      return;
    case 'slice':
      for (const target of outputs(node.target, input)) {
        for (const to of node.to === undefined ? [null] : outputs(node.to, input)) {
          for (const from of node.from === undefined ? [null] : outputs(node.from, input)) {
            spend(1);
            yield* step(node.optional, () => [sliceValue(target, from, to)]);
          }
        }
      }
      return;
    case 'iterate':
      for (const target of outputs(node.target, input)) yield* step(node.optional, () => iterateValue(target));
      return;
    case 'try':
      try {
        yield* outputs(node.body, input);
      } catch (error) {
        if (!(error instanceof JqRuntimeError)) throw error;
      }
      return;
    case 'pipe':
      if (isSingle(node.right)) for (const value of outputs(node.left, input)) yield single(node.right, value);
      else for (const value of outputs(node.left, input)) yield* outputs(node.right, value);
      return;
    case 'comma':
      yield* outputs(node.left, input);
      yield* outputs(node.right, input);
      return;
    case 'alternative': {
      let any = false;
      for (const value of outputs(node.left, input)) {
        if (!isTruthy(value)) continue;
        any = true;
        yield value;
      }
      if (!any) yield* outputs(node.right, input);
      return;
    }
    case 'and':
    case 'or':
      for (const left of outputs(node.left, input)) {
        if (isTruthy(left) === (node.kind === 'or')) {
          yield node.kind === 'or';
          continue;
        }
        for (const right of outputs(node.right, input)) {
          spend(1);
          yield isTruthy(right);
        }
      }
      return;
    case 'arithmetic':
      for (const right of outputs(node.right, input))
        for (const left of outputs(node.left, input)) {
          spend(1);
          yield arithmetic(node.operator, left, right);
        }
      return;
    case 'comparison':
      for (const right of outputs(node.right, input))
        for (const left of outputs(node.left, input)) {
          spend(1);
          yield compare(node.operator, left, right);
        }
      return;
    case 'negate':
      for (const value of outputs(node.operand, input)) {
        if (typeof value !== 'number') throw new JqRuntimeError(`${describeValue(value)} cannot be negated`);
        yield -value;
      }
      return;
    case 'array': {
      const items = node.body === undefined ? [] : [...outputs(node.body, input)];
      allocate(items.length);
      yield items;
      return;
    }
    case 'object':
      yield* objects(node.entries, input, 0, []);
      return;
    case 'if':
      yield* branch(node.branches, node.otherwise, input, 0);
      return;
    case 'call':
      yield* BUILTINS[node.name].apply(input, node.args, outputs);
      return;
  }
}

function* branch(
  branches: Array<{ condition: JqNode; then: JqNode }>,
  otherwise: JqNode | undefined,
  input: JqValue,
  from: number,
): Generator<JqValue> {
  if (from === branches.length) {
    yield* otherwise === undefined ? [input] : outputs(otherwise, input);
    return;
  }
  const { condition, then } = branches[from];
  for (const verdict of outputs(condition, input)) {
    if (isTruthy(verdict)) yield* outputs(then, input);
    else yield* branch(branches, otherwise, input, from + 1);
  }
}
