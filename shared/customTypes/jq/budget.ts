// How much one evaluation of rules may do: a number of steps (a node evaluated, a value produced,
// a part of a value compared or read) and a number of units built (characters of new strings,
// elements of new arrays and objects). Rules are written by one party and data sent by another, so
// a product such as `[.a[]+.a[]+.a[]+.a[]]` or a quadratic builtin must stop, deterministically,
// after a bounded time and memory, whatever either sends. The budget grows with the data, so a
// rule that reads its data a few times over is never refused, and a rule on small data gets far
// more than any real rule uses (a few hundred steps).
//
// Counted in the evaluator itself (not a time limit), so the same rule on the same data always
// ends the same way, on the server, in the editor and in tests alike.

/** Steps every evaluation may take, and units it may build, whatever its data. */
export const BASE_STEPS = 200_000;
export const BASE_UNITS = 2_000_000;
/**
 * Steps and units added per unit of the data: its values, plus its characters (a step per
 * CHARACTERS_PER_STEP of them). Four passes over the data, about what a JSON.parse of it costs.
 */
export const PER_DATA_UNIT = 4;

/** A step stands for this many characters of a string read (a comparison, a search, a count). */
const CHARACTERS_PER_STEP = 64;

/**
 * Thrown when an evaluation is over its budget. Not a JqRuntimeError: neither `?` nor a failing
 * rule may swallow it, since it says nothing about the data, only that the rule costs too much.
 */
export class JqBudgetExceeded extends Error {
  /** The rule or expression being evaluated, and its index among the ones evaluated together. */
  expression = '';
  index = 0;
}

interface Remaining {
  steps: number;
  units: number;
  readonly limits: { steps: number; units: number };
}

let remaining: Remaining | undefined;

function exceeded(what: 'steps' | 'units'): JqBudgetExceeded {
  const limit = remaining!.limits[what].toLocaleString('en-US');
  return new JqBudgetExceeded(
    what === 'steps'
      ? `takes more than ${limit} evaluation steps on this data`
      : `builds more than ${limit} characters and elements on this data`,
  );
}

/** Counts `steps`; throws JqBudgetExceeded past the budget. Outside withinBudget nothing is counted. */
export function spend(steps: number): void {
  if (remaining === undefined) return;
  remaining.steps -= steps;
  if (remaining.steps < 0) throw exceeded('steps');
}

/** Counts reading `length` characters of a string, beyond the step of the operation that reads them. */
export function read(length: number): void {
  spend(Math.floor(length / CHARACTERS_PER_STEP));
}

/**
 * `work` without counting its steps, for the comparisons of a sort, which its caller counts at
 * once (n log n steps): each element takes part in about log n of them, so their reads add up to
 * the size of the array times log n, never more.
 */
export function uncounted<T>(work: () => T): T {
  const counting = remaining;
  remaining = undefined;
  try {
    return work();
  } finally {
    remaining = counting;
  }
}

/** Counts building a value of `units` characters or elements, and the step that builds it. */
export function allocate(units: number): void {
  if (remaining === undefined) return;
  spend(1);
  remaining.units -= units;
  if (remaining.units < 0) throw exceeded('units');
}

/** The size of JSON data: its values, and the characters of its strings and keys. */
export interface DataSize {
  values: number;
  characters: number;
}

/** Walked without recursion, so data nested however deeply is measured. */
export function dataSize(data: unknown): DataSize {
  const size: DataSize = { values: 0, characters: 0 };
  const pending: unknown[] = [data];
  while (pending.length > 0) {
    const value = pending.pop();
    size.values += 1;
    if (typeof value === 'string') size.characters += value.length;
    else if (Array.isArray(value)) for (const item of value as unknown[]) pending.push(item);
    else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) {
        size.characters += key.length;
        pending.push(item);
      }
  }
  return size;
}

/** Expressions evaluated together (an attestation's rules) whose data part of the budget adds up: at most this many. */
export const MAX_PASSES = 4;

/**
 * `work`'s result, counted against one budget for `expressions` evaluated on `data` (or the budget
 * already counting, inside one): the base once, the data part once per expression up to
 * MAX_PASSES, so any number of rules together cost no more than four that each read their data
 * four times.
 */
export function withinBudget<T>(data: unknown, expressions: number, work: () => T): T {
  if (remaining !== undefined) return work();
  const { values, characters } = dataSize(data);
  const passes = PER_DATA_UNIT * Math.max(1, Math.min(expressions, MAX_PASSES));
  const limits = {
    steps: BASE_STEPS + passes * (values + Math.floor(characters / CHARACTERS_PER_STEP)),
    units: BASE_UNITS + passes * (values + characters),
  };
  remaining = { ...limits, limits };
  try {
    return work();
  } finally {
    remaining = undefined;
  }
}
