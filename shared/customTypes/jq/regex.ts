// Regular expressions for `test`. jq's engine has Ruby syntax; the common forms (classes,
// quantifiers, groups, anchors, \d \w \s) read the same in JavaScript with the `u` flag, and `^`/`$`
// match at line breaks in both (hence `m`). Flags: `i` ignores case; `g` and `n` change nothing for
// a yes/no test. jq's `x`, `s`, `p` and `l` flags are refused rather than approximated.
import { JqRuntimeError } from './syntax.ts';

const FLAGS: Readonly<Record<string, string>> = { g: '', n: '', i: 'i' };
const CACHE_LIMIT = 256;
const cache = new Map<string, RegExp>();

function jsFlags(flags: string): string {
  let result = 'mu';
  for (const flag of flags) {
    const js = FLAGS[flag];
    if (js === undefined) throw new JqRuntimeError(`Regex flag '${flag}' is not supported in rules (use g, i or n)`);
    if (!result.includes(js)) result += js;
  }
  return result;
}

/** The compiled pattern; throws JqRuntimeError for a pattern or flag it cannot use. */
export function compiledRegex(pattern: string, flags = ''): RegExp {
  const key = `${flags}\u0000${pattern}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, jsFlags(flags));
  } catch (error) {
    if (error instanceof JqRuntimeError) throw error;
    throw new JqRuntimeError(
      `Invalid regular expression ${JSON.stringify(pattern)}: ${error instanceof Error ? error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : String(error)}`,
    );
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, regex);
  return regex;
}

/** Why a literal pattern or flags cannot be used, checked when the rule is read. */
export function regexProblem(pattern: string | undefined, flags: string | undefined): string | undefined {
  try {
    if (flags !== undefined) jsFlags(flags);
    if (pattern !== undefined) compiledRegex(pattern, flags ?? '');
    return undefined;
  } catch (error) {
    if (error instanceof JqRuntimeError) return error.message;
    throw error;
  }
}
