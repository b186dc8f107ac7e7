// jq's view of JSON values: type names, truthiness, its total order and equality, and how values
// are quoted in error messages.
import { read, spend } from './budget.ts';
import type { JqValue } from './syntax.ts';

export type JqType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

const TYPE_ORDER: readonly JqType[] = ['null', 'boolean', 'number', 'string', 'array', 'object'];

export function typeOf(value: JqValue): JqType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'boolean' | 'number' | 'string' | 'object';
}

/** jq truthiness: everything except `false` and `null`. */
export function isTruthy(value: JqValue): boolean {
  return value !== null && value !== false;
}

export function isObject(value: JqValue): value is { [key: string]: JqValue } {
  return typeOf(value) === 'object';
}

/** Keys in jq's order: by Unicode code point (not UTF-16 unit, which differs above U+FFFF). */
export function sortedKeys(value: { [key: string]: JqValue }): string[] {
  return Object.keys(value).sort(compareStrings);
}

/** UTF-16 units reordered so comparing them compares code points: surrogates above U+E000..U+FFFF. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

function compareStrings(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  read(length);
  for (let i = 0; i < length; i += 1) {
    const a = left.charCodeAt(i);
    const b = right.charCodeAt(i);
    if (a !== b) return codePointRank(a) - codePointRank(b);
  }
  return left.length - right.length;
}

/** jq's total order: null < false < true < numbers < strings < arrays < objects. */
export function compareValues(left: JqValue, right: JqValue): number {
  spend(1);
  if (left === right) return 0;
  const leftType = typeOf(left);
  const rightType = typeOf(right);
  if (leftType !== rightType) return TYPE_ORDER.indexOf(leftType) - TYPE_ORDER.indexOf(rightType);
  switch (leftType) {
    case 'null':
      return 0;
    case 'boolean':
    case 'number':
      return Number(left) - Number(right);
    case 'string':
      return compareStrings(left as string, right as string);
    case 'array': {
      const a = left as JqValue[];
      const b = right as JqValue[];
      for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
        const order = compareValues(a[i], b[i]);
        if (order !== 0) return order;
      }
      return a.length - b.length;
    }
    case 'object': {
      const a = left as { [key: string]: JqValue };
      const b = right as { [key: string]: JqValue };
      const keysOrder = compareValues(sortedKeys(a), sortedKeys(b));
      if (keysOrder !== 0) return keysOrder;
      for (const key of sortedKeys(a)) {
        const order = compareValues(a[key], b[key]);
        if (order !== 0) return order;
      }
      return 0;
    }
  }
}

export function valuesEqual(left: JqValue, right: JqValue): boolean {
  return compareValues(left, right) === 0;
}

/** The start of a value's JSON text, at least `length` characters of it unless shorter, built without writing it whole. */
function jsonStart(value: JqValue, length: number): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, length));
  if (!Array.isArray(value) && !isObject(value)) return JSON.stringify(value);
  const parts: string[] = [];
  let written = 1;
  const add = (part: string): boolean => {
    parts.push(part);
    written += part.length + 1;
    return written > length;
  };
  if (Array.isArray(value)) {
    for (const item of value) if (add(jsonStart(item, length - written))) break;
    return `[${parts.join(',')}]`;
  }
  for (const key in value) if (add(`${JSON.stringify(key)}:${jsonStart(value[key], length - written)}`)) break;
  return `{${parts.join(',')}}`;
}

/** A value as jq quotes it in errors: its type and its JSON, cut short. */
export function describeValue(value: JqValue): string {
  const json = jsonStart(value, 31);
  return `${typeOf(value)} (${json.length > 30 ? `${json.slice(0, 27)}...` : json})`;
}

/** How deeply attestation data may nest for rules to judge it: deeper data fails every rule. */
export const MAX_DATA_DEPTH = 512;

/**
 * Whether `data` is plain JSON (no undefined, functions or non-finite numbers) nested at most
 * MAX_DATA_DEPTH levels, checked without copying it; evaluation recurses no deeper than that.
 */
export function isJson(data: unknown, depth = 0): data is JqValue {
  if (data === null || typeof data === 'boolean' || typeof data === 'string') return true;
  if (typeof data === 'number') return Number.isFinite(data);
  if (depth >= MAX_DATA_DEPTH) return false;
  if (Array.isArray(data)) return data.every((item) => isJson(item, depth + 1));
  if (typeof data !== 'object') return false;
  for (const key in data)
    if (Object.hasOwn(data, key) && !isJson((data as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}
