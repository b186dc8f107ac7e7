// Evaluator of the jq subset: a filter maps one input to a stream of outputs, modelled as a
// generator so `any`, `all`, `//` and `and`/`or` stop as soon as their answer is known.
// Output order follows jq: for binary operators the right operand varies slowest.
import { BUILTINS } from './builtins.ts';
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

function* objects(entries: Array<{ key: JqNode; value: JqNode }>, input: JqValue, from: number, built: Array<[string, JqValue]>): Generator<JqValue> {
  if (from === entries.length) {
    yield Object.fromEntries(built);
    return;
  }
  const entry = entries[from]!;
  for (const key of run(entry.key, input)) {
    if (typeof key !== 'string') throw new JqRuntimeError(`Object keys must be strings, not ${typeOf(key)}`);
    for (const value of run(entry.value, input)) yield* objects(entries, input, from + 1, [...built, [key, value]]);
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

/** The outputs of `node` for `input`; throws JqRuntimeError where jq raises an error. */
export function* run(node: JqNode, input: JqValue): Generator<JqValue> {
  switch (node.kind) {
    case 'identity':
      yield input;
      return;
    case 'literal':
      yield node.value;
      return;
    case 'index':
      for (const target of run(node.target, input)) {
        for (const key of run(node.index, input)) yield* step(node.optional, () => [indexValue(target, key)]);
      }
      return;
    case 'slice':
      for (const target of run(node.target, input)) {
        for (const to of node.to === undefined ? [null] : run(node.to, input)) {
          for (const from of node.from === undefined ? [null] : run(node.from, input)) yield* step(node.optional, () => [sliceValue(target, from, to)]);
        }
      }
      return;
    case 'iterate':
      for (const target of run(node.target, input)) yield* step(node.optional, () => iterateValue(target));
      return;
    case 'try':
      try {
        yield* run(node.body, input);
      } catch (error) {
        if (!(error instanceof JqRuntimeError)) throw error;
      }
      return;
    case 'pipe':
      for (const value of run(node.left, input)) yield* run(node.right, value);
      return;
    case 'comma':
      yield* run(node.left, input);
      yield* run(node.right, input);
      return;
    case 'alternative': {
      let any = false;
      for (const value of run(node.left, input)) {
        if (!isTruthy(value)) continue;
        any = true;
        yield value;
      }
      if (!any) yield* run(node.right, input);
      return;
    }
    case 'and':
    case 'or':
      for (const left of run(node.left, input)) {
        if (isTruthy(left) === (node.kind === 'or')) {
          yield node.kind === 'or';
          continue;
        }
        for (const right of run(node.right, input)) yield isTruthy(right);
      }
      return;
    case 'arithmetic':
      for (const right of run(node.right, input)) for (const left of run(node.left, input)) yield arithmetic(node.operator, left, right);
      return;
    case 'comparison':
      for (const right of run(node.right, input)) for (const left of run(node.left, input)) yield compare(node.operator, left, right);
      return;
    case 'negate':
      for (const value of run(node.operand, input)) {
        if (typeof value !== 'number') throw new JqRuntimeError(`${describeValue(value)} cannot be negated`);
        yield -value;
      }
      return;
    case 'array':
      yield node.body === undefined ? [] : [...run(node.body, input)];
      return;
    case 'object':
      yield* objects(node.entries, input, 0, []);
      return;
    case 'if':
      yield* branch(node.branches, node.otherwise, input, 0);
      return;
    case 'call':
      yield* BUILTINS[node.name]!.apply(input, node.args, run);
      return;
  }
}

function* branch(branches: Array<{ condition: JqNode; then: JqNode }>, otherwise: JqNode | undefined, input: JqValue, from: number): Generator<JqValue> {
  if (from === branches.length) {
    yield* otherwise === undefined ? [input] : run(otherwise, input);
    return;
  }
  const { condition, then } = branches[from]!;
  for (const verdict of run(condition, input)) {
    if (isTruthy(verdict)) yield* run(then, input);
    else yield* branch(branches, otherwise, input, from + 1);
  }
}
