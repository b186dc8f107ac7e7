// jq's operations on values: indexing, slicing, iterating and arithmetic, with jq's error wording.
import { allocate, spend } from './budget.ts';
import { JqRuntimeError, type ArithmeticOperator, type JqValue } from './syntax.ts';
import { describeValue, isObject, typeOf, valuesEqual } from './values.ts';

/** `.[key]`: null for a missing key, an index out of range, or a null input. */
export function indexValue(target: JqValue, key: JqValue): JqValue {
  if (target === null && (typeof key === 'string' || typeof key === 'number' || key === null)) return null;
  if (isObject(target) && typeof key === 'string') return Object.hasOwn(target, key) ? target[key]! : null;
  if (Array.isArray(target) && typeof key === 'number') {
    const index = Math.floor(key < 0 ? target.length + key : key);
    return index >= 0 && index < target.length ? target[index]! : null;
  }
  const shown = typeof key === 'string' ? JSON.stringify(key) : typeOf(key);
  throw new JqRuntimeError(`Cannot index ${typeOf(target)} with ${shown}`);
}

function sliceBound(bound: JqValue, length: number, fallback: number): number {
  if (bound === null) return fallback;
  if (typeof bound !== 'number')
    throw new JqRuntimeError(`Start and end indices of a slice must be numbers, not ${typeOf(bound)}`);
  const index = bound < 0 ? length + bound : bound;
  return Math.min(length, Math.max(0, Math.floor(index)));
}

/** `.[from:to]` of an array or a string (by code point); null stays null. */
export function sliceValue(target: JqValue, from: JqValue, to: JqValue): JqValue {
  if (target === null) return null;
  const slice = <T>(items: T[]): T[] => {
    const result = items.slice(sliceBound(from, items.length, 0), sliceBound(to, items.length, items.length));
    allocate(result.length);
    return result;
  };
  if (typeof target === 'string') {
    allocate(target.length);
    return slice(Array.from(target)).join('');
  }
  if (Array.isArray(target)) return slice(target);
  throw new JqRuntimeError(`Cannot index ${typeOf(target)} with object`);
}

export function iterateValue(target: JqValue): JqValue[] {
  if (Array.isArray(target)) {
    spend(target.length);
    return target;
  }
  if (isObject(target)) {
    const values = Object.values(target);
    allocate(values.length);
    return values;
  }
  throw new JqRuntimeError(`Cannot iterate over ${describeValue(target)}`);
}

function deepMerge(left: { [key: string]: JqValue }, right: { [key: string]: JqValue }): JqValue {
  allocate(Object.keys(left).length + Object.keys(right).length);
  const merged = Object.entries(right).map(([key, value]): [string, JqValue] => {
    const before = Object.hasOwn(left, key) ? left[key]! : undefined;
    return [key, before !== undefined && isObject(before) && isObject(value) ? deepMerge(before, value) : value];
  });
  return { ...left, ...Object.fromEntries(merged) };
}

function cannot(left: JqValue, right: JqValue, verb: string): JqRuntimeError {
  return new JqRuntimeError(`${describeValue(left)} and ${describeValue(right)} cannot be ${verb}`);
}

/** Longest string a repetition may build: a rule needs no more, and data must not make it allocate gigabytes. */
const REPEAT_LIMIT = 1_000_000;

/** jq's `"s" * n`: null for n <= 0, at least one copy for 0 < n < 1, otherwise trunc(n) copies. */
function repeated(text: string, times: number): JqValue {
  const extra = Math.trunc(times - 1);
  if (!(extra >= 0)) return null;
  if (text.length * (extra + 1) > REPEAT_LIMIT) throw new JqRuntimeError('Repeat string result too long');
  allocate(text.length * (extra + 1));
  return text.repeat(extra + 1);
}

/** `left op right` for jq's arithmetic. */
export function arithmetic(operator: ArithmeticOperator, left: JqValue, right: JqValue): JqValue {
  if (typeof left === 'number' && typeof right === 'number') {
    switch (operator) {
      case '+':
        return left + right;
      case '-':
        return left - right;
      case '*':
        return left * right;
      case '/':
        if (right === 0) throw cannot(left, right, 'divided because the divisor is zero');
        return left / right;
      case '%': {
        const divisor = Math.trunc(right);
        if (divisor === 0) throw cannot(left, right, 'divided because the divisor is zero');
        return Math.trunc(left) % divisor;
      }
    }
  }
  switch (operator) {
    case '+':
      if (left === null) return right;
      if (right === null) return left;
      if (typeof left === 'string' && typeof right === 'string') {
        // Strings join without copying (V8 keeps both parts), so only the part added counts.
        allocate(right.length);
        return left + right;
      }
      if (Array.isArray(left) && Array.isArray(right)) {
        allocate(left.length + right.length);
        return [...left, ...right];
      }
      if (isObject(left) && isObject(right)) {
        allocate(Object.keys(left).length + Object.keys(right).length);
        return { ...left, ...right };
      }
      throw cannot(left, right, 'added');
    case '-':
      if (Array.isArray(left) && Array.isArray(right)) {
        spend(left.length * right.length);
        return left.filter((item) => !right.some((removed) => valuesEqual(item, removed)));
      }
      throw cannot(left, right, 'subtracted');
    case '*':
      if (isObject(left) && isObject(right)) return deepMerge(left, right);
      if (typeof left === 'string' && typeof right === 'number') return repeated(left, right);
      if (typeof left === 'number' && typeof right === 'string') return repeated(right, left);
      throw cannot(left, right, 'multiplied');
    case '/':
      if (typeof left === 'string' && typeof right === 'string') {
        allocate(left.length);
        return left === '' ? [] : left.split(right);
      }
      throw cannot(left, right, 'divided');
    case '%':
      throw cannot(left, right, 'divided');
  }
}
