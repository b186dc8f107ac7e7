// Every regular expression a user writes (name_regex, matches() in policy conditions, `pattern` in
// custom-type schemas, test() in jq rules) runs here, on RE2JS: a pure-JavaScript port of RE2 whose
// matching time is linear in the text, so no pattern can stall the server however it is written
// (JavaScript's own engine backtracks: `^(a+)+$` on 32 a's and a dash took 22 s). Pure JavaScript,
// so the editor, the CLI and the server share it. Patterns keep JavaScript's syntax and meaning
// (translate.ts); one that cannot keep them on this engine is refused with why.
import { RE2JS, RE2JSException } from 're2js';
import { RegexProblem, translatedPattern } from './translate.ts';

export { RegexProblem };

/** Longest pattern accepted: far beyond any real one, and short enough that compiling one costs little. */
export const MAX_PATTERN_LENGTH = 4096;

/** A compiled pattern: whether it finds a match anywhere in a text, in time linear in the text. */
export interface LinearRegex {
  test(text: string): boolean;
  /** `/pattern/flags`, which tells compiled patterns apart. */
  toString(): string;
}

/** The JavaScript flags a pattern may carry: u (Unicode syntax), i (ignore case), m (^ and $ at line breaks). */
const ENGINE_FLAGS: Readonly<Record<string, number>> = {
  u: 0,
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
};

/** RE2's refusal of a translated pattern, in the user's terms. */
function engineReason(error: RE2JSException): string {
  const message = error.message.replace(/^error parsing regexp: /, '');
  if (message.startsWith('invalid repeat count')) return 'a repeat count above 1000 is not supported';
  if (message.startsWith('expression too large') || message.startsWith('expression nests too deeply'))
    return 'the pattern is too large for the engine';
  if (message.startsWith('invalid character class range'))
    return `the Unicode property in ${message.slice(30)} is not supported`;
  return message;
}

function compiled(pattern: string, flags: string): LinearRegex {
  let mask = 0;
  for (const flag of flags) {
    if (!Object.hasOwn(ENGINE_FLAGS, flag))
      throw new RegexProblem(pattern, `the flag '${flag}' is not supported`, true);
    mask |= ENGINE_FLAGS[flag];
  }
  if (pattern.length > MAX_PATTERN_LENGTH)
    throw new RegexProblem(pattern, `longer than ${MAX_PATTERN_LENGTH} characters`, true);
  const unicode = flags.includes('u');
  try {
    new RegExp(pattern, unicode ? 'u' : '');
  } catch (error) {
    const reason =
      error instanceof Error
        ? error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '')
        : String(error);
    throw new RegexProblem(pattern, reason, false);
  }
  const translated = translatedPattern(pattern, { unicode });
  let engine: RE2JS;
  try {
    engine = RE2JS.compile(translated, mask);
  } catch (error) {
    if (error instanceof RE2JSException) throw new RegexProblem(pattern, engineReason(error), true);
    throw error;
  }
  const shown = `/${pattern}/${flags}`;
  return { test: (text) => engine.test(text), toString: () => shown };
}

const CACHE_LIMIT = 512;
/** Compiled patterns and refusals by flags and pattern, oldest dropped first once full. */
const cache = new Map<string, LinearRegex | RegexProblem>();

/** The pattern compiled (once; kept among the last CACHE_LIMIT used); throws RegexProblem when it cannot be used. */
export function linearRegex(pattern: string, flags = ''): LinearRegex {
  const key = `${flags}/${pattern}`;
  let result = cache.get(key);
  if (result === undefined) {
    try {
      result = compiled(pattern, flags);
    } catch (error) {
      if (!(error instanceof RegexProblem)) throw error;
      result = error;
    }
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  } else cache.delete(key);
  cache.set(key, result);
  if (result instanceof RegexProblem) throw result;
  return result;
}

/** Why the pattern cannot be used, or undefined when it can: the one check of every place that stores or takes one. */
export function regexProblem(pattern: string, flags = ''): RegexProblem | undefined {
  try {
    linearRegex(pattern, flags);
    return undefined;
  } catch (error) {
    if (error instanceof RegexProblem) return error;
    throw error;
  }
}

/** Whether the pattern finds a match in `text`; false for a pattern that cannot be used. */
export function matchesPattern(pattern: string, text: string, flags = ''): boolean {
  const problem = regexProblem(pattern, flags);
  return problem === undefined && linearRegex(pattern, flags).test(text);
}
