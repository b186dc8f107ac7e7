// Evaluates a parsed condition. Values are strings, numbers, booleans and null; anything missing
// reads as null, so a condition about an absent tag is simply false rather than an error.

import { matchesPattern } from '../regex/index.ts';
import type { ConditionContext, ContextPath, Expression, LiteralValue } from './syntax.ts';

type Value = LiteralValue | Value[];

/** Whether the condition holds for this flow and artifact. */
export function evaluateCondition(expression: Expression, context: ConditionContext): boolean {
  return truthy(valueOf(expression, context));
}

function valueOf(expression: Expression, context: ConditionContext): Value {
  switch (expression.kind) {
    case 'literal':
      return expression.value;
    case 'list':
      return expression.items.map((item) => valueOf(item, context));
    case 'context':
      return read(expression.path, context);
    case 'not':
      return !truthy(valueOf(expression.operand, context));
    case 'logical': {
      const left = truthy(valueOf(expression.left, context));
      if (expression.operator === 'and') return left && truthy(valueOf(expression.right, context));
      return left || truthy(valueOf(expression.right, context));
    }
    case 'compare':
      return compare(expression.operator, valueOf(expression.left, context), valueOf(expression.right, context));
    case 'in': {
      const found = contains(valueOf(expression.right, context), valueOf(expression.left, context));
      return expression.negated ? !found : found;
    }
    case 'call': {
      const args = expression.args.map((arg) => valueOf(arg, context));
      return expression.name === 'exists' ? args[0] !== null : matches(args[0] ?? null, args[1] ?? null);
    }
  }
}

function read(path: ContextPath, context: ConditionContext): Value {
  if (path.scope === 'artifact') return context.artifact?.[path.property] ?? null;
  if (path.property === 'name') return context.flow?.name ?? null;
  const tags = context.flow?.tags;
  return tags && Object.hasOwn(tags, path.key) ? (tags[path.key] ?? null) : null;
}

function truthy(value: Value): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && value !== false && value !== '' && value !== 0;
}

/** A number and a numeric string compare as numbers: tag values are always strings. */
function numeric(value: Value): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value);
    if (Number.isFinite(number)) return number;
  }
  return undefined;
}

function equal(left: Value, right: Value): boolean {
  if (Array.isArray(left) || Array.isArray(right)) return false;
  if (typeof left === 'number' || typeof right === 'number') {
    const a = numeric(left);
    const b = numeric(right);
    return a !== undefined && b !== undefined && a === b;
  }
  return left === right;
}

function compare(operator: string, left: Value, right: Value): boolean {
  if (operator === '==') return equal(left, right);
  if (operator === '!=') return !equal(left, right);
  let order: number;
  if (typeof left === 'string' && typeof right === 'string') {
    order = left < right ? -1 : left > right ? 1 : 0;
  } else if (typeof left === 'number' || typeof right === 'number') {
    const a = numeric(left);
    const b = numeric(right);
    if (a === undefined || b === undefined) return false;
    order = a - b;
  } else {
    return false;
  }
  if (operator === '<') return order < 0;
  if (operator === '>') return order > 0;
  if (operator === '<=') return order <= 0;
  return order >= 0;
}

function contains(haystack: Value, needle: Value): boolean {
  if (Array.isArray(haystack)) return haystack.some((item) => equal(needle, item));
  if (typeof haystack === 'string' && typeof needle === 'string') return haystack.includes(needle);
  return false;
}

/** Whether the pattern finds a match in the text, on the linear-time engine; false for a pattern it refuses. */
function matches(text: Value, pattern: Value): boolean {
  if (text === null || Array.isArray(text) || typeof pattern !== 'string') return false;
  return matchesPattern(pattern, String(text));
}
